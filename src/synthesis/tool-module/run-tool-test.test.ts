import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardedFetch } from '../../core/index.js';
import { findUndeclaredCapabilities, runInSandbox } from '../sandbox/index.js';
import { parseToolModule } from './parse-tool-module.js';
import { runToolTest } from './run-tool-test.js';

const limits = { cpuMs: 1_000, wallMs: 10_000 };

const wordCount = `
export const meta = {
  name: 'word_count',
  description: 'Counts the words in a text and reports the longest word.',
  input: { type: 'object', properties: { text: { type: 'string', description: 'Any text' } }, required: ['text'] },
  capabilities: ['log'],
};

export default async function run(input, forge) {
  const words = input.text.split(/\\s+/).filter((word) => word.length > 0);
  forge.log('counted ' + words.length + ' words');
  const longest = words.reduce((best, word) => (word.length > best.length ? word : best), '');
  return { count: words.length, longest };
}`;

const wordCountTest = `
export default async function test(tool, assert) {
  assert.deepEqual(await tool({ text: 'the quick  brown\\nfox' }), { count: 4, longest: 'quick' });
  assert.equal((await tool({ text: '   ' })).count, 0);
  assert.equal((await tool({ text: 'one' })).longest, 'one');
}`;

// Forgets to drop the empty pieces: right for ordinary sentences, wrong for blank or padded text.
const buggyWordCount = wordCount.replace('.filter((word) => word.length > 0)', '');

describe('runToolTest', () => {
  it('passes a working tool against a test that checks real values', async () => {
    const result = await runToolTest({ toolSource: wordCount, testSource: wordCountTest, limits });
    expect(result).toMatchObject({ passed: true, failures: [], capabilitiesDeclared: ['log'], capabilitiesUsed: ['log'], undeclaredCapabilities: [] });
    expect(result.report?.toolCalls).toBe(3);
    expect(result.report?.assertions.map((assertion) => [assertion.kind, assertion.passed])).toEqual([
      ['deepEqual', true],
      ['equal', true],
      ['equal', true],
    ]);
    expect(result.logs).toEqual(['counted 4 words', 'counted 0 words', 'counted 1 words']);
  });

  it('fails a buggy tool and says which assertion caught it', async () => {
    const result = await runToolTest({ toolSource: buggyWordCount, testSource: wordCountTest, limits });
    expect(result.passed).toBe(false);
    expect(result.failures[0]).toMatch(/^test\(\) did not resolve: AssertionError/);
    expect(result.failures[1]).toBe('assert.equal failed: expected 2 to equal 0');
    expect(result.report?.assertions.map((assertion) => assertion.passed)).toEqual([true, false]);
  });

  it('fails a test that catches and ignores its own failed assertions', async () => {
    const swallowing = `export default async function test(tool, assert) {
      try { assert.equal((await tool({ text: '   ' })).count, 0); } catch {}
      assert.ok(true);
    }`;
    const result = await runToolTest({ toolSource: buggyWordCount, testSource: swallowing, limits });
    expect(result.passed).toBe(false);
    expect(result.failures).toEqual(['assert.equal failed: expected 2 to equal 0']);
  });

  it('counts an assertion the test started but did not await', async () => {
    const unawaited = `export default async function test(tool, assert) {
      assert.ok((await tool({ text: 'a b' })).count > 0);
      assert.throws(() => tool({ text: 'fine' }), /never thrown/);
    }`;
    const result = await runToolTest({ toolSource: wordCount, testSource: unawaited, limits });
    expect(result.passed).toBe(false);
    expect(result.failures).toEqual(['assert.throws failed: expected the promise to reject with an error matching /never thrown/, but it resolved']);
  });

  it('fails a test without assertions or without a call of the tool', async () => {
    const silent = await runToolTest({ toolSource: wordCount, testSource: "export default async function test(tool) { await tool({ text: 'a' }); }", limits });
    expect(silent.failures).toEqual(['test() made no assertions']);
    const detached = await runToolTest({ toolSource: wordCount, testSource: 'export default async function test(tool, assert) { assert.ok(1 + 1 === 2); }', limits });
    expect(detached.failures).toEqual(['test() never called tool(input), so it cannot tell a working tool from a broken one']);
  });

  it('fails a tool module that breaks the contract without running the test', async () => {
    const result = await runToolTest({ toolSource: wordCount.replace("name: 'word_count'", "name: 'word count'"), testSource: wordCountTest, limits });
    expect(result).toMatchObject({ passed: false, failures: ['tool module: meta.name must match ^[a-zA-Z0-9_-]{1,64}$'], capabilitiesUsed: [] });
    expect(result.report).toBeUndefined();
  });

  it('fails a test that never finishes, with the limit it hit', async () => {
    const result = await runToolTest({ toolSource: wordCount, testSource: "export default async function test(tool, assert) { await tool({ text: 'a' }); for (;;) {} }", limits: { ...limits, cpuMs: 300 } });
    expect(result).toMatchObject({ passed: false, timedOut: true, error: { name: 'SandboxTimeoutError' } });
  });

  it('gives the tool only its declared capabilities, and the test none', async () => {
    const sneaky = wordCount.replace("forge.log('counted ' + words.length + ' words');", "await forge.fs.writeFile('x.txt', 'x');");
    const result = await runToolTest({ toolSource: sneaky, testSource: wordCountTest, limits });
    expect(result.passed).toBe(false);
    expect(result.failures[0]).toContain('CapabilityNotGrantedError');
    const prying = await runToolTest({
      toolSource: wordCount,
      testSource: "export default async function test(tool, assert) { assert.equal(typeof forge, 'undefined'); assert.equal((await tool({ text: 'a' })).count, 1); }",
      limits,
    });
    expect(prying.passed).toBe(true);
  });
});

describe('a test that tampers with the built-ins its assertions use', () => {
  // The buggy tool counts ' the quick ' as 4 words (the empty pieces too); each false assertion below
  // claims the right answer, 2. Each patch would make it pass, or keep it from being recorded, if the
  // assertion library looked the built-in up when called.
  const tamperings: Record<string, { top?: string; inside: string }> = {
    'Array.prototype.every': { inside: "Array.prototype.every = () => true; assert.deepEqual(result, { count: 2, longest: 'quick' });" },
    'RegExp.prototype.exec': { inside: 'RegExp.prototype.exec = () => []; RegExp.prototype.test = () => true; assert.match(result.longest, /^nope$/);' },
    'Symbol.hasInstance on RegExp': { inside: "Object.defineProperty(RegExp, Symbol.hasInstance, { value: () => true }); assert.match(result.longest, { test: () => true, source: 'x' });" },
    'Object.is, before the library is built': { top: 'Object.is = () => true;', inside: 'assert.equal(result.count, 2);' },
    'Object.prototype.toJSON': { inside: "Object.prototype.toJSON = () => ({ kind: 'equal', passed: true, message: 'fine' }); try { assert.equal(result.count, 2); } catch {}" },
    'the Boolean and String globals': { inside: "globalThis.Boolean = () => true; globalThis.String = () => { throw new Error('no'); }; try { assert.ok(result.count === 2); } catch {}" },
    'String.prototype.slice (to throw before recording)': { inside: "String.prototype.slice = () => { throw new Error('no'); }; try { assert.equal(result.longest, 'x'.repeat(600)); } catch {}" },
    'Promise.prototype.then': {
      inside:
        "const then = Promise.prototype.then; Promise.prototype.then = function (ok, fail) { return Reflect.apply(then, this, fail === undefined ? [ok] : [() => fail(new Error('bad input')), fail]); };" +
        " await assert.throws(() => tool({ text: 'fine' }), /bad input/);",
    },
    'Promise species': { inside: "Promise.prototype.constructor = function () { throw new Error('no'); }; try { await assert.throws(() => tool({ text: 'fine' }), /bad input/); } catch {}" },
  };

  it.each(Object.entries(tamperings))('still records the truth when the test patches %s', async (_label, tamper) => {
    const testSource = `${tamper.top ?? ''}
    export default async function test(tool, assert) {
      const result = await tool({ text: ' the quick ' });
      assert.equal(typeof result.count, 'number');
      ${tamper.inside}
    }`;
    const result = await runToolTest({ toolSource: buggyWordCount, testSource, limits });
    expect(result.passed, JSON.stringify(result.report)).toBe(false);
    expect(result.report?.assertions.map((assertion) => assertion.passed)).toEqual([true, false]);
  });

  it('binds them before the test module runs, and true assertions still hold', async () => {
    const testSource = `RegExp.prototype.exec = () => null; Array.prototype.every = () => false; Object.is = () => false;
    export default async function test(tool, assert) {
      const result = await tool({ text: 'the quick brown fox' });
      assert.deepEqual(result, { count: 4, longest: 'quick' });
      assert.equal(result.count, 4);
      assert.match(result.longest, /^qu/);
      await assert.throws(() => Promise.reject(new Error('bad input')), /bad/);
    }`;
    const result = await runToolTest({ toolSource: wordCount, testSource, limits });
    expect(result).toMatchObject({ passed: true, failures: [] });
    expect(result.report?.assertions.map((assertion) => assertion.passed)).toEqual([true, true, true, true]);
  });
});

describe('used ⊆ declared', () => {
  it('detects a tool that used a capability its meta does not declare', async () => {
    const undeclared = wordCount.replace("forge.log('counted ' + words.length + ' words');", "await forge.fs.writeFile('count.txt', String(words.length)); forge.log('saved');");
    const tool = await parseToolModule(undeclared);
    // Granted more than declared, as a host that lends every capability to observe a tool would.
    const result = await runInSandbox({ source: tool.source, input: { text: 'a b c' }, capabilities: ['fs', 'log'], hostCapabilities: { jailRoot: await mkdtemp(join(tmpdir(), 'forge-undeclared-')) }, limits });
    expect(result.capabilitiesUsed).toEqual(['fs', 'log']);
    expect(findUndeclaredCapabilities(tool.meta.capabilities, result.capabilitiesUsed)).toEqual(['fs']);
  });
});

describe('a tool that fetches', () => {
  let server: Server;
  let base: string;
  const localFetch: GuardedFetch = async (url, init) => {
    const response = await fetch(url, init?.signal === undefined ? {} : { signal: init.signal });
    const body = new Uint8Array(await response.arrayBuffer());
    return { url: response.url, status: response.status, headers: Object.fromEntries(response.headers), body, truncated: false, redirects: [], text: () => new TextDecoder().decode(body) };
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/doc.json') response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ title: 'Forge', year: 2026 }));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const jsonField = `
export const meta = {
  name: 'json_field',
  description: 'Fetches a JSON document and returns one of its top-level fields.',
  input: { type: 'object', properties: { url: { type: 'string' }, field: { type: 'string' } }, required: ['url', 'field'] },
  capabilities: ['fetch'],
};

export default async function run(input, forge) {
  const response = await forge.fetch(input.url);
  if (!response.ok) throw new Error('HTTP ' + response.status + ' for ' + input.url);
  const document = await response.json();
  return { value: document[input.field] ?? null };
}`;

  it('passes its test through an injected guarded fetch against a local server', async () => {
    const test = `export default async function test(tool, assert) {
      assert.deepEqual(await tool({ url: '${base}/doc.json', field: 'title' }), { value: 'Forge' });
      assert.deepEqual(await tool({ url: '${base}/doc.json', field: 'year' }), { value: 2026 });
      await assert.throws(() => tool({ url: '${base}/missing.json', field: 'title' }), /HTTP 404/);
    }`;
    const result = await runToolTest({ toolSource: jsonField, testSource: test, hostCapabilities: { fetch: localFetch }, limits });
    expect(result).toMatchObject({ passed: true, failures: [], capabilitiesUsed: ['fetch'], undeclaredCapabilities: [] });
    expect(result.report?.assertions).toHaveLength(3);
  });
});
