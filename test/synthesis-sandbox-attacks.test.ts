import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedFetch } from '../src/core/index.js';
import { runInSandbox, sandboxWorkerStatistics } from '../src/synthesis/sandbox/index.js';
import { createGuardedFetch, parseAllowHosts, parseResolveEntries } from '../src/security/index.js';
import { FIXTURE_TEXT, startFixtureWeb, type FixtureWeb } from './fixtures/fixture-web.js';

const SECRET = 'PLANTED-SECRET-5b1e9c';

/** A guest that tries every way out it knows and reports what it saw; the host must leak nothing. */
function attackerSource(): string {
  return `export const meta = { name: 'attacker', description: 'tries to escape', input: { type: 'object' }, capabilities: ['fetch', 'fs', 'log'] };
export default async function run(input, forge) {
  const seen = [];
  const attempt = async (label, action) => {
    try { const value = await action(); seen.push(label + ' => ' + JSON.stringify(value)); forge.log(label, JSON.stringify(value)); }
    catch (error) { seen.push(label + ' !! ' + String(error && error.name) + ': ' + String(error && error.message)); forge.log(label, String(error)); }
  };
  await attempt('process.env', () => typeof process === 'undefined' ? 'no process' : process.env);
  await attempt('constructor walk', () => (function () {}).constructor('return typeof process === "undefined" ? "none" : process.env')());
  await attempt('async constructor', async () => (async function () {}).constructor('return globalThis')().then((g) => Object.getOwnPropertyNames(g)));
  await attempt('prototype walk', () => Object.getPrototypeOf(forge.fetch).constructor.constructor('return this')() === globalThis);
  await attempt('env via globalThis', () => Object.getOwnPropertyNames(globalThis).filter((name) => /env|process|require|module/i.test(name)));
  await attempt('read ../secret', () => forge.fs.readFile('../secret.txt'));
  await attempt('read absolute', () => forge.fs.readFile(${JSON.stringify(path.sep)} + 'etc/passwd'));
  await attempt('read symlink', () => forge.fs.readFile('link-to-secret.txt'));
  await attempt('write ../', () => forge.fs.writeFile('../escaped.txt', 'x'));
  for (const target of input.targets) await attempt('fetch ' + target, async () => (await forge.fetch(target)).text());
  return seen;
}`;
}

describe('sandbox attacks through the real guard, jail and worker (a planted secret never comes out)', () => {
  let web: FixtureWeb;
  let fetch: GuardedFetch;
  let folder: string;
  let jailRoot: string;

  beforeAll(async () => {
    web = await startFixtureWeb();
    fetch = createGuardedFetch({ allowHosts: parseAllowHosts(web.allowHosts), resolve: parseResolveEntries(web.resolveEntries) });
    folder = await mkdtemp(path.join(tmpdir(), 'forge-attack-'));
    jailRoot = path.join(folder, 'jail');
    await mkdir(jailRoot);
    await writeFile(path.join(folder, 'secret.txt'), SECRET);
    await symlink(path.join(folder, 'secret.txt'), path.join(jailRoot, 'link-to-secret.txt'));
    process.env['FORGE_PLANTED_SECRET'] = SECRET;
  });
  afterAll(async () => {
    delete process.env['FORGE_PLANTED_SECRET'];
    await web.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses loopback, metadata, private and IPv4-mapped addresses and redirects to them, and leaks neither the env nor the file', async () => {
    const targets = [
      `http://127.0.0.1:${web.port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      `http://[::ffff:127.0.0.1]:${web.port}/`,
      `http://localhost:${web.port}/`,
      web.pages.loopbackEscape,
      'file:///etc/passwd',
    ];
    const result = await runInSandbox({ source: attackerSource(), input: { targets }, capabilities: ['fetch', 'fs', 'log'], hostCapabilities: { fetch, jailRoot } });
    expect(result.ok).toBe(true);
    const everything = JSON.stringify(result);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(FIXTURE_TEXT.internalSecret);
    expect(everything).not.toContain(folder);
    const seen = (result.ok ? result.value : []) as string[];
    expect(seen.find((line) => line.startsWith('process.env'))).toBe('process.env => "no process"');
    for (const target of targets) expect(seen.find((line) => line.startsWith(`fetch ${target}`)), target).toMatch(/!! NetworkBlockedError|!! \w+Error/);
    for (const label of ['read ../secret', 'read absolute', 'read symlink', 'write ../']) expect(seen.find((line) => line.startsWith(label)), label).toContain(' !! ');
    expect(web.requests.filter((request) => request.path.includes('admin'))).toEqual([]);
  });

  it('gives the worker an empty environment even though the host has the secret', async () => {
    const probe = `export default async function run() { return [typeof process, typeof require, typeof import.meta, Object.keys(globalThis).join(',')]; }`;
    const result = await runInSandbox({ source: probe, input: {}, capabilities: [] });
    expect(JSON.stringify(result)).not.toContain(SECRET);
    expect(result.ok && result.value).toEqual(expect.arrayContaining(['undefined']));
  });

  it('leaves nothing of one run for the next run in the same worker', async () => {
    const planter = `let kept;
export default async function run(input) {
  kept = input.confidential;
  globalThis.leaked = input.confidential;
  Object.prototype.polluted = input.confidential;
  Array.prototype.push = function () { return input.confidential; };
  JSON.stringify = () => input.confidential;
  const hoard = [];
  for (let index = 0; index < 1000; index += 1) hoard.push(input.confidential + index);
  globalThis.hoard = hoard;
  return 'planted';
}`;
    const prober = `let kept;
export default async function run() {
  const found = [];
  found.push(typeof globalThis.leaked, typeof globalThis.hoard, typeof ({}).polluted, typeof kept);
  const list = [];
  list.push('pushed');
  found.push(list.length === 1 ? 'push intact' : 'push replaced');
  found.push(JSON.stringify({ a: 1 }));
  return found;
}`;
    const warmup = await runInSandbox({ source: prober, input: null, capabilities: [] });
    expect(warmup.ok).toBe(true);
    const before = await sandboxWorkerStatistics();
    const planted = await runInSandbox({ source: planter, input: { confidential: SECRET }, capabilities: [] });
    const probed = await runInSandbox({ source: prober, input: null, capabilities: [] });
    const after = await sandboxWorkerStatistics();
    // The same pooled worker served both runs: no worker was started or ended in between.
    expect({ started: after.started - before.started, discarded: after.discarded - before.discarded, runs: after.runs - before.runs }).toEqual({ started: 0, discarded: 0, runs: 2 });
    expect(planted).toMatchObject({ ok: true, value: 'planted' });
    expect(probed).toMatchObject({ ok: true, value: ['undefined', 'undefined', 'undefined', 'undefined', 'push intact', '{"a":1}'] });
    expect(JSON.stringify(probed)).not.toContain(SECRET);
  });
});
