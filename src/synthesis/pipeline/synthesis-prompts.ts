import { capabilityNames, describeCapabilitiesForPrompt } from '../sandbox/index.js';
import type { ToolRequest } from './tool-request.js';

function contractOf(request: ToolRequest): string {
  return [`name: ${request.name}`, `signature: ${request.signature}`, `purpose: ${request.purpose}`].join('\n');
}

/** The author's instructions; the capability section is generated from the sandbox's capability registry. */
export function authorSystemPrompt(): string {
  return [
    'You write one tool for Forge: a JavaScript ES module with no imports that runs in a QuickJS sandbox.',
    'It exports `meta` = { name, description, input (a JSON Schema object for the single input object), capabilities (the subset of ' +
      `${JSON.stringify(capabilityNames)} it uses) } and a default \`async function run(input, forge)\` that returns JSON data.`,
    'Only standard JavaScript built-ins exist: no process, require, import, timers, global fetch or console. Return compact, structured data.',
    describeCapabilitiesForPrompt(capabilityNames),
    'Hand back the complete module by calling submit_tool({source}). An independent test you cannot see decides whether the tool is promoted; ' +
      'when it fails you get its output and revise the whole module.',
  ].join('\n\n');
}

export function authorRequestMessage(request: ToolRequest): string {
  return `Write this tool (use exactly this name in meta.name):\n${contractOf(request)}`;
}

/** The tester's instructions: adversarial and black-box, from the contract alone. */
export function testerSystemPrompt(): string {
  return [
    'You write an adversarial black-box test for a Forge tool you cannot see. Assume the tool is buggy: catch wrong results, ' +
      'off-by-one errors, degenerate and constant outputs and ignored inputs, not just shapes. Check exact values you can derive from the contract.',
    'The test is an ES module with no imports whose default export is `async function test(tool, assert)`. `await tool(input)` calls the tool; ' +
      '`assert` offers equal(actual, expected, message?), deepEqual, ok(value, message?), match(text, regexp), throws(fn). ' +
      'Only standard JavaScript built-ins exist.',
    'The harness runs your test in a sandbox and decides pass or fail itself. It also runs it against stubs that return null, 0, "", true, [], {}, ' +
      'echo their input or always throw: a test that passes any stub is rejected.',
    'Hand back the complete test module by calling submit_test({source}).',
  ].join('\n\n');
}

export function testerRequestMessage(request: ToolRequest): string {
  return `Write the test for this tool contract:\n${contractOf(request)}`;
}
