import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnyTool, ToolContext } from '../../core/index.js';
import { plantEscapes, snapshotTree, traversalPaths, type PlantedEscapes } from '../../security/traversal-contract.js';
import { createFileTools } from './index.js';

let base: string;
let workspace: string;
let outside: string;
let planted: PlantedEscapes;

const secret = 'top secret';

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'forge-file-tools-traversal-')));
  workspace = join(base, 'workspace');
  outside = join(base, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), secret);
  planted = await plantEscapes(workspace, outside);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const context: ToolContext = { runId: 'run', callId: 'call', signal: new AbortController().signal, fetch: async () => Promise.reject(new Error('no network')), utilityModel: undefined };

/** Every file tool's call on one path: each reads, lists, searches or writes there. */
function attacksOn(path: string): Array<{ tool: string; input: Record<string, unknown> }> {
  return [
    { tool: 'file_read', input: { path } },
    { tool: 'file_list', input: { path, recursive: true } },
    { tool: 'file_search', input: { query: 'secret', path } },
    { tool: 'file_write', input: { path, content: 'overwritten' } },
    { tool: 'file_patch', input: { path, old: secret, new: 'overwritten' } },
  ];
}

/** What a call gave the model to read, result or error alike. */
async function outcome(tools: readonly AnyTool[], attack: { tool: string; input: Record<string, unknown> }): Promise<string> {
  const tool = tools.find((candidate) => candidate.name === attack.tool)!;
  try {
    return `value:${JSON.stringify(await tool.execute(tool.inputSchema.parse(attack.input), context))}`;
  } catch (error) {
    return `error:${(error as Error).name}:${(error as Error).message}`;
  }
}

/**
 * Every file tool against the traversal list of the jail (traversal-contract.ts), checked at the file
 * system: the secret outside is never shown, nothing outside is created or changed, and the host's own
 * files named by absolute paths are left alone.
 */
describe('the file tools against the traversal list', () => {
  const ownPackage = join(process.cwd(), 'package.json');

  it.each(traversalPaths)('%j: no tool reads, lists, searches or writes outside', async (path) => {
    const tools = createFileTools({ workspace });
    const before = await snapshotTree(outside);
    const packageBefore = await readFile(ownPackage, 'utf8');
    for (const attack of attacksOn(path)) {
      const seen = await outcome(tools, attack);
      expect(seen, `${attack.tool} ${path}`).not.toContain(secret);
      expect(seen, `${attack.tool} ${path}`).not.toContain('root:x:0:0');
    }
    expect(await snapshotTree(outside)).toEqual(before);
    expect((await readdir(base)).sort()).toEqual(['outside', 'workspace']);
    expect(await readFile(ownPackage, 'utf8')).toBe(packageBefore);
  });

  it('refuses every planted escape (symlink chains, linked folders, /proc/self/root, dangling links) for every tool', async () => {
    const tools = createFileTools({ workspace });
    const before = await snapshotTree(outside);
    for (const path of [...planted.symlinkChain, ...planted.linkedPaths]) {
      for (const attack of attacksOn(path)) {
        const seen = await outcome(tools, attack);
        expect(seen, `${attack.tool} ${path}`).toMatch(/^error:FileJailError:/);
        expect(seen, `${attack.tool} ${path}`).not.toContain(secret);
      }
    }
    expect(await snapshotTree(outside)).toEqual(before);
    expect((await readdir(base)).sort()).toEqual(['outside', 'workspace']);
  });

  it('refuses devices and FIFOs without blocking, and walks past them and every link when listing or searching the workspace', async () => {
    const tools = createFileTools({ workspace });
    for (const path of planted.specialFiles) {
      for (const attack of attacksOn(path).filter((candidate) => candidate.tool !== 'file_list')) {
        const seen = await outcome(tools, attack);
        // A search of a FIFO names it among what was skipped; nothing else may come back from one.
        expect(seen, `${attack.tool} ${path}`).toMatch(attack.tool === 'file_search' && path === 'pipe' ? /"matches":\[\]/ : /^error:FileJailError:/);
      }
    }
    const search = await outcome(tools, { tool: 'file_search', input: { query: 'secret' } });
    expect(search).toContain('"matches":[]');
    expect(search).not.toContain(secret);
    const listing = await outcome(tools, { tool: 'file_list', input: { recursive: true } });
    expect(listing).toContain('{"path":"out-dir","type":"symlink"}');
    expect(listing).toContain('{"path":"pipe","type":"other"}');
    expect(listing).not.toContain('secret.txt');
  });
});
