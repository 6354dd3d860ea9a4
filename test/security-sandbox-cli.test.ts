import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samplePeakRss } from './support/process-memory.js';
import { runCli, type CliResult } from './support/built-cli.js';

/** A word counter with an off-by-one: it reports one word too many. */
const buggyWordCount = `export const meta = {
  name: 'word_count',
  description: 'Counts the words in a text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  capabilities: [],
};
export default async function run(input) {
  return { count: input.text.split(' ').length + 1 };
}`;

/**
 * A test that would reject every stub (its first assertion needs a numeric count), then tampers with the
 * built-ins the assertion library relies on and asserts what the buggy tool does not do.
 */
function tamperingTest(tamper: string, falseAssertion: string): string {
  return `${tamper.startsWith('top:') ? tamper.slice(4) : ''}
export default async function test(tool, assert) {
  const result = await tool({ text: 'one two three' });
  assert.equal(typeof result.count, 'number', 'the count is a number');
  ${tamper.startsWith('top:') ? '' : tamper}
  ${falseAssertion}
}`;
}

const tamperings: Record<string, string> = {
  'Array.prototype.every': tamperingTest('Array.prototype.every = function () { return true; };', 'assert.deepEqual(result, { count: 3 });'),
  'RegExp.prototype.test and exec, before the harness loads': tamperingTest(
    'top:RegExp.prototype.test = function () { return true; }; RegExp.prototype.exec = function () { return []; };',
    'assert.match(String(result.count), /^3$/);',
  ),
  'Object.prototype.toJSON (forging the record)': tamperingTest(
    "Object.prototype.toJSON = function () { return { kind: 'equal', passed: true, message: 'fine' }; };",
    'try { assert.equal(result.count, 3); } catch {}',
  ),
  'the Boolean global': tamperingTest('globalThis.Boolean = function () { return true; };', 'assert.ok(result.count === 3);'),
};

/** `forge tools add` through the built binary with a test that switches off its own assertions. */
describe('a test cannot switch off its own assertions (the verification gate, from the command line)', () => {
  let home: string;
  const file = (name: string) => path.join(home, 'work', name);

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-gate-attack-'));
    await mkdir(file(''), { recursive: true });
    await writeFile(file('word-count.js'), buggyWordCount);
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it.each(Object.entries(tamperings))('refuses the buggy tool when the test patches %s', async (label, test) => {
    const slug = label.replace(/\W+/g, '-');
    const testFile = file(`${slug}.test.js`);
    await writeFile(testFile, test);
    const forgeHome = path.join(home, slug);
    const added: CliResult = await runCli(['tools', 'add', file('word-count.js'), '--test', testFile], { FORGE_HOME: forgeHome });
    expect(added.code, added.stdout + added.stderr).toBe(1);
    expect(added.stderr).toContain('Tool "word_count" did not pass verification');
    expect(added.stderr).toMatch(/assert\.(deepEqual|match|equal|ok) failed/);
    const listed = await runCli(['tools', 'list', '--json'], { FORGE_HOME: forgeHome });
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { toolbox: unknown[] }).toolbox).toEqual([]);
  });
});

const blobBytes = 5 * 1024 * 1024;

/** A loopback server of 5 MiB blobs that counts the requests it gets and how many it serves at once. */
async function startBlobServer(): Promise<{ port: number; started: number; maxInFlight: number; close(): Promise<void> }> {
  const blob = Buffer.alloc(blobBytes, 'x');
  const stats = { started: 0, inFlight: 0, maxInFlight: 0 };
  const server: Server = createServer((request, response) => {
    stats.started += 1;
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    response.on('close', () => (stats.inFlight -= 1));
    request.resume();
    response.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(blob.length) }).end(blob);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(stats, {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

async function countEntries(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true }).catch(() => []);
  return entries.length;
}

/** One sandboxed run against the host's resources, through `forge tools add` on the built binary. */
describe('one sandboxed run cannot exhaust the host (from the command line)', () => {
  let home: string;
  const file = (name: string) => path.join(home, 'work', name);

  beforeAll(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'forge-sandbox-flood-'));
    await mkdir(file(''), { recursive: true });
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('keeps few forge.fetch calls in flight and stops fetching once the run spent its byte budget', async () => {
    const blobs = await startBlobServer();
    try {
      await writeFile(
        file('fan-out.js'),
        `export const meta = {
  name: 'fan_out',
  description: 'Fetches many large blobs at once and reports how many arrived.',
  input: { type: 'object', properties: { base: { type: 'string' } }, required: ['base'] },
  capabilities: ['fetch'],
};
export default async function run(input, forge) {
  const settled = await Promise.allSettled(Array.from({ length: 150 }, (_, index) => forge.fetch(input.base + '/blob/' + index).then((response) => response.truncated)));
  const refused = settled.filter((outcome) => outcome.status === 'rejected').map((outcome) => outcome.reason.name);
  return { arrived: settled.length - refused.length, refused: refused.length, reasons: [...new Set(refused)] };
}`,
      );
      await writeFile(
        file('fan-out.test.js'),
        `export default async function test(tool, assert) {
  const result = await tool({ base: 'http://127.0.0.1:${blobs.port}' });
  assert.equal(result.arrived + result.refused, 150);
}`,
      );
      const memory = { peakBytes: 0 };
      let sampler: NodeJS.Timeout | undefined;
      const added = await runCli(['tools', 'add', file('fan-out.js'), '--test', file('fan-out.test.js'), '--json'], { FORGE_HOME: path.join(home, 'fan-out'), FORGE_ALLOW_HOSTS: `127.0.0.1:${blobs.port}` }, {
        timeoutMs: 120_000,
        onSpawn: (child) => (sampler = samplePeakRss(child.pid, memory)),
      });
      clearInterval(sampler);
      console.info(`fan-out: ${blobs.started} requests of 5 MiB, at most ${blobs.maxInFlight} at once, CLI peak RSS ${(memory.peakBytes / 2 ** 20).toFixed(0)} MiB`);
      expect(added.signal, added.stderr).toBeNull();
      expect(blobs.maxInFlight).toBeLessThanOrEqual(4);
      // 32 MiB of budget is 7 blobs; at most 4 more were already under way when it ran out.
      expect(blobs.started).toBeLessThanOrEqual(11);
      // Generous: it tells "holds a few blobs" from "holds them all" (about 1 GiB before the limits).
      expect(memory.peakBytes).toBeLessThan(768 * 2 ** 20);
    } finally {
      await blobs.close();
    }
  });

  it('refuses a write hundreds of folders deep and counts every file and folder a run creates', async () => {
    await writeFile(
      file('inode-flood.js'),
      `export const meta = {
  name: 'inode_flood',
  description: 'Writes empty files hundreds of folders deep, then many empty files side by side.',
  input: { type: 'object', properties: { deep: { type: 'integer' }, flat: { type: 'integer' } }, required: ['deep', 'flat'] },
  capabilities: ['fs'],
};
export default async function run(input, forge) {
  const outcomes = [];
  for (let index = 0; index < input.deep; index++) {
    try {
      await forge.fs.writeFile('t' + index + '/' + 'd/'.repeat(490) + 'f', '');
      outcomes.push('written');
    } catch (error) {
      outcomes.push(error.name);
    }
  }
  for (let index = 0; index < input.flat; index++) {
    try {
      await forge.fs.writeFile('flat/f' + index, '');
    } catch (error) {
      outcomes.push(error.name + ' at file ' + index);
      break;
    }
  }
  return outcomes;
}`,
    );
    await writeFile(
      file('inode-flood.test.js'),
      `export default async function test(tool, assert) {
  const outcomes = await tool({ deep: 2, flat: 3 });
  assert.ok(Array.isArray(outcomes) && outcomes.length >= 2);
}`,
    );
    const env = { FORGE_HOME: path.join(home, 'inode-flood') };
    const added = await runCli(['tools', 'add', file('inode-flood.js'), '--test', file('inode-flood.test.js')], env, { timeoutMs: 120_000 });
    expect(added.code, added.stderr).toBe(0);
    const called = await runCli(['tools', 'call', 'inode_flood', '--json', '--input', JSON.stringify({ deep: 10, flat: 5000 })], env, { timeoutMs: 120_000 });
    expect(called.signal, called.stderr).toBeNull();
    const entries = await countEntries(path.join(env.FORGE_HOME, 'toolbox', 'files', 'inode_flood'));
    console.info(`inode flood: ${entries} files and folders in the tool's folder; ${called.stdout.slice(0, 300)}`);
    const outcomes = JSON.parse((JSON.parse(called.stdout) as { output: string }).output) as string[];
    expect(outcomes.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 'FileJailError'));
    expect(outcomes.at(-1)).toMatch(/^FileJailError at file \d+$/);
    // One run may create at most 4,096 entries (each counts 4 KiB against its 16 MiB), none deeper than 32 segments.
    expect(entries).toBeLessThanOrEqual(4096);
  });
});
