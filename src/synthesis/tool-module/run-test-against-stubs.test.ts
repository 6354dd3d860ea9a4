import { describe, expect, it } from 'vitest';
import { runTestAgainstStubs } from './run-test-against-stubs.js';
import { runToolTest } from './run-tool-test.js';
import type { ToolModuleMeta } from './tool-module-meta.js';
import { toolStubs } from './tool-stubs.js';

const limits = { cpuMs: 1_000, wallMs: 10_000 };

const meta: ToolModuleMeta = {
  name: 'word_count',
  description: 'Counts the words in a text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  capabilities: [],
};

const wordCount = `
export const meta = ${JSON.stringify(meta)};
export default async function run(input) {
  return { count: input.text.split(/\\s+/).filter((word) => word.length > 0).length };
}`;

const goodTest = `
export default async function test(tool, assert) {
  assert.equal((await tool({ text: 'one two  three' })).count, 3);
  assert.deepEqual(await tool({ text: ' ' }), { count: 0 });
}`;

const shapeOnlyTest = `
export default async function test(tool, assert) {
  const result = await tool({ text: 'one two' });
  assert.ok(typeof result === 'object', 'returns an object');
}`;

const throwsOnlyTest = `
export default async function test(tool, assert) {
  await assert.throws(() => tool({}), /failed|undefined|split/);
}`;

describe('runTestAgainstStubs', () => {
  it('accepts a test that passes the real tool and fails every stub', async () => {
    expect((await runToolTest({ toolSource: wordCount, testSource: goodTest, limits })).passed).toBe(true);
    const check = await runTestAgainstStubs({ testSource: goodTest, meta, limits });
    expect(check).toMatchObject({ rejectsEveryStub: true, passedStubs: [] });
    expect(check.runs.map((run) => run.stub)).toEqual(toolStubs(meta.name).map((stub) => stub.name));
    for (const run of check.runs) expect(run.failures.length).toBeGreaterThan(0);
  });

  it('rejects a test that only checks the shape of the result, naming the stubs it passed', async () => {
    expect((await runToolTest({ toolSource: wordCount, testSource: shapeOnlyTest, limits })).passed).toBe(true);
    const check = await runTestAgainstStubs({ testSource: shapeOnlyTest, meta, limits });
    expect(check.rejectsEveryStub).toBe(false);
    expect(check.passedStubs).toEqual(['constant-null', 'constant-empty-array', 'constant-empty-object', 'echo-input']);
  });

  it('rejects a test that only checks that bad input throws', async () => {
    const check = await runTestAgainstStubs({ testSource: throwsOnlyTest, meta, limits });
    expect(check.passedStubs).toEqual(['throw']);
  });
});
