import { mkdtemp, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureWorkspace, runWorkspace, workspaceOf, WorkspaceFolderError } from './workspace-folder.js';

let base: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'forge-workspace-')));
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('workspaceOf', () => {
  it("takes the run's workspace over the installation's", () => {
    expect(workspaceOf({ workspace: '/runs/one' }, '/installation')).toBe('/runs/one');
    expect(workspaceOf({}, '/installation')).toBe('/installation');
  });

  it('refuses a relative folder, which would depend on the current folder', () => {
    expect(() => workspaceOf({ workspace: 'relative/folder' }, '/installation')).toThrow(WorkspaceFolderError);
    expect(() => workspaceOf({}, 'workspace')).toThrow(/not an absolute path/);
  });
});

describe('ensureWorkspace', () => {
  it('creates a missing folder with its parents and returns its real path', async () => {
    const folder = join(base, 'deep', 'workspace');
    expect(await ensureWorkspace(folder)).toBe(folder);
    expect((await stat(folder)).isDirectory()).toBe(true);
  });

  it('resolves a symlinked workspace to the folder it names', async () => {
    await ensureWorkspace(join(base, 'real'));
    await symlink(join(base, 'real'), join(base, 'link'));
    expect(await ensureWorkspace(join(base, 'link'))).toBe(join(base, 'real'));
  });

  it('refuses a file in the place of the folder, naming what is wrong', async () => {
    await writeFile(join(base, 'file'), 'not a folder');
    const error = await ensureWorkspace(join(base, 'file')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WorkspaceFolderError);
    expect((error as WorkspaceFolderError).message).toMatch(/is not a folder/);
    expect((error as WorkspaceFolderError).hint).toMatch(/FORGE_WORKSPACE/);
    await expect(ensureWorkspace(join(base, 'file', 'below'))).rejects.toThrow(/is not a folder/);
  });
});

describe('runWorkspace', () => {
  it("gives an account's runs a folder of their own under the root, an agent that keeps one its own inside it, and the operator the root", () => {
    expect(runWorkspace('/srv/ws', { accountId: null })).toBe('/srv/ws');
    expect(runWorkspace('/srv/ws', { accountId: '6f1c2d3e-0a1b-4c5d-8e9f-a0b1c2d3e4f5' })).toBe('/srv/ws/accounts/6f1c2d3e-0a1b-4c5d-8e9f-a0b1c2d3e4f5');
    expect(runWorkspace('/srv/ws', { accountId: 'acct', agentSlug: 'researcher' })).toBe('/srv/ws/accounts/acct/agents/researcher');
    expect(runWorkspace('/srv/ws', { accountId: null, agentSlug: 'researcher' })).toBe('/srv/ws/agents/researcher');
  });

  it('refuses an id that would name a path instead of one folder', () => {
    for (const accountId of ['..', '.', 'a/b', '../other', '', 'a\0b']) {
      expect(() => runWorkspace('/srv/ws', { accountId }), JSON.stringify(accountId)).toThrow(WorkspaceFolderError);
    }
  });
});
