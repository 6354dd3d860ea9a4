import { describe, expect, it } from 'vitest';
import { parseToolModule } from './parse-tool-module.js';
import { ToolModuleError } from './tool-module-error.js';

const wordCount = `
export const meta = {
  name: 'word_count',
  description: 'Counts the words in a text.',
  input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  capabilities: ['log', 'fetch'],
};
export default async function run(input) {
  return { count: input.text.split(/\\s+/).filter(Boolean).length };
}`;

async function issuesOf(source: string): Promise<readonly string[]> {
  const error = await parseToolModule(source).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ToolModuleError)) throw new Error(`expected a ToolModuleError, got ${String(error)}`);
  return error.issues;
}

describe('parseToolModule', () => {
  it('reads and validates meta by evaluating the module in the sandbox', async () => {
    const tool = await parseToolModule(wordCount);
    expect(tool.source).toBe(wordCount);
    expect(tool.meta).toEqual({
      name: 'word_count',
      description: 'Counts the words in a text.',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      capabilities: ['fetch', 'log'],
    });
  });

  it('lists every problem of a bad meta at once, each naming its field', async () => {
    const issues = await issuesOf(`
      export const meta = {
        name: 'word count!',
        description: '  ',
        input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text', 'language'] },
        capabilities: ['fetch', 'shell', 'fetch'],
      };
      export default async function run() { return 1; }`);
    expect(issues).toEqual([
      'meta.name must match ^[a-zA-Z0-9_-]{1,64}$',
      'meta.description must not be empty',
      'meta.input.required names "language", which is not in properties',
      'meta.capabilities.1 must each be one of fetch, fs, log',
    ]);
  });

  it('requires an object input schema that is a JSON Schema', async () => {
    expect(await issuesOf("export const meta = { name: 'a', description: 'b', input: { type: 'string' }, capabilities: [] }; export default async function run() {}")).toEqual([
      'meta.input.type must be "object": a tool takes one object of named arguments',
    ]);
    const issues = await issuesOf(
      "export const meta = { name: 'a', description: 'b', input: { type: 'object', properties: { x: { type: 'banana' } } }, capabilities: [] }; export default async function run() {}",
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^meta.input is not a JSON Schema Forge can validate with/);
  });

  it('requires a meta export and a default run function', async () => {
    expect(await issuesOf('export const run = async () => 1;')).toEqual(['the default export must be async function run(input, forge); it is missing', 'there is no `meta` export']);
    expect(await issuesOf("export const meta = { name: 'a', description: 'b', input: { type: 'object' } }; export default 42;")).toEqual([
      'the default export must be async function run(input, forge); it is a number',
      'meta.capabilities must be a list, e.g. [] or ["fetch", "log"]',
    ]);
  });

  it('reports a module that does not load, or whose top level never ends, as a contract failure', async () => {
    expect((await issuesOf('export const meta = {'))[0]).toMatch(/^SyntaxError: the module did not load/);
    expect((await issuesOf('for (;;) {}\nexport const meta = {};'))[0]).toMatch(/^SandboxTimeoutError/);
  });
});
