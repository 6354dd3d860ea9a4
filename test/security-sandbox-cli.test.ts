import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const manifest = JSON.parse(await readFile(path.join(forgeHome, 'toolbox', 'manifest.json'), 'utf8').catch(() => '{"tools":[]}')) as { tools: { status: string }[] };
    expect(manifest.tools.filter((tool) => tool.status === 'promoted')).toEqual([]);
  });
});
