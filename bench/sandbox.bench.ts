/**
 * One verification in Forge's sandbox against the seed design's mechanism. Ours: `runToolTest`, the
 * module check and then the test, each in a fresh QuickJS instance (new WebAssembly memory, new runtime)
 * inside a pooled worker thread, the test run against the tool and judged on the host; back to back, so
 * the instance a worker prepares while idle is seldom ready in time. Theirs: a `python3 -E -s -B`
 * subprocess in a temp folder holding only the tool and its test, with the environment stripped to PATH
 * (the seed's isolation, which is not a security boundary). Both run an equivalent word-count tool and
 * test. Best of 5 interleaved rounds of 20 each. Two more rows give context: a cold start (the idle
 * workers are closed before each verification, so it pays for starting a worker thread), and the whole
 * promotion gate (the test against the tool, then against all 8 stubs, each a fresh instance).
 * Target (issue 4): ours at most 1× the subprocess cost.
 *
 *   npm run bench:sandbox
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { closeIdleSandboxWorkers } from '../src/synthesis/sandbox/index.js';
import { runToolTest } from '../src/synthesis/tool-module/index.js';
import { verifyTool } from '../src/synthesis/toolbox/index.js';

const run = promisify(execFile);
// The real interpreter, not a version-manager shim (a shell script that would inflate the baseline).
const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const rounds = 5;
const perRound = 20;

const toolSource = `export const meta = {
  name: 'word_count',
  description: 'Counts the words in a text and reports the longest word.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  capabilities: [],
};
export default async function run(input) {
  const words = input.text.split(/\\s+/).filter((word) => word.length > 0);
  return { count: words.length, longest: words.reduce((a, b) => (b.length > a.length ? b : a), '') };
}`;
const testSource = `export default async function test(tool, assert) {
  assert.deepEqual(await tool({ text: 'the quick brown fox' }), { count: 4, longest: 'quick' });
  assert.equal((await tool({ text: '' })).count, 0);
  assert.equal((await tool({ text: ' a  bb ccc ' })).longest, 'ccc');
}`;

const pythonTool = `def run(text):
    words = [word for word in text.split() if word]
    longest = ''
    for word in words:
        if len(word) > len(longest):
            longest = word
    return {'count': len(words), 'longest': longest}
`;
const pythonTest = `import word_count
assert word_count.run('the quick brown fox') == {'count': 4, 'longest': 'quick'}
assert word_count.run('')['count'] == 0
assert word_count.run(' a  bb ccc ')['longest'] == 'ccc'
`;

async function forgeVerification(): Promise<void> {
  const result = await runToolTest({ toolSource, testSource });
  if (!result.passed) throw new Error(`forge verification failed: ${result.failures.join('; ')}`);
}

async function pythonVerification(): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), 'forge-bench-py-'));
  try {
    await writeFile(path.join(folder, 'word_count.py'), pythonTool);
    await writeFile(path.join(folder, 'test_word_count.py'), pythonTest);
    await run(python, ['-E', '-s', '-B', 'test_word_count.py'], { cwd: folder, env: { PATH: process.env['PATH'] ?? '' }, timeout: 30_000 });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

async function forgeGate(): Promise<void> {
  const verification = await verifyTool({ toolSource, testSource });
  if (!verification.passed) throw new Error(`forge gate failed: ${verification.failures.join('; ')}`);
}

async function coldForgeVerification(): Promise<number> {
  await closeIdleSandboxWorkers();
  const started = performance.now();
  await forgeVerification();
  return performance.now() - started;
}

async function timePerRun(action: () => Promise<void>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < perRound; index += 1) await action();
  return (performance.now() - started) / perRound;
}

await forgeVerification();
await pythonVerification();
const best = { forge: Infinity, python: Infinity, cold: Infinity, gate: Infinity };
for (let round = 0; round < rounds; round += 1) {
  best.python = Math.min(best.python, await timePerRun(pythonVerification));
  best.forge = Math.min(best.forge, await timePerRun(forgeVerification));
  best.cold = Math.min(best.cold, await coldForgeVerification());
  best.gate = Math.min(best.gate, await timePerRun(forgeGate));
}
await closeIdleSandboxWorkers();

const rows = [
  ['python3 -E -s -B subprocess (seed design, baseline)', best.python],
  ['Forge: fresh QuickJS (WASM) instance per run in a pooled worker, module check + test', best.forge],
  ['Forge, cold: no idle worker, a worker thread is started first (context, not the target)', best.cold],
  ['Forge, the whole promotion gate: test + the same test against 8 stubs (context)', best.gate],
] as const;
process.stdout.write(`one verification (spawn + load + run test), best of ${rounds} rounds × ${perRound}\n\n`);
process.stdout.write(`| contender | ms/verification | ratio |\n|---|---|---|\n`);
for (const [name, milliseconds] of rows) process.stdout.write(`| ${name} | ${milliseconds.toFixed(1)} | ${(milliseconds / best.python).toFixed(2)}× |\n`);
process.stdout.write(`\ntarget: Forge ≤ 1.00× the subprocess; measured ${(best.forge / best.python).toFixed(2)}×\n`);
