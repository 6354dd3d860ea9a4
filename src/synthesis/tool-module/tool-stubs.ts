/** The stand-ins a test must fail against before its tool may be promoted. */
export type ToolStubName =
  | 'constant-null'
  | 'constant-zero'
  | 'constant-empty-string'
  | 'constant-true'
  | 'constant-empty-array'
  | 'constant-empty-object'
  | 'echo-input'
  | 'throw';

export interface ToolStub {
  readonly name: ToolStubName;
  /** What the stub does, in the words a failure report uses. */
  readonly behaviour: string;
  /** A tool module (default export only) that behaves so. */
  readonly source: string;
}

// One constant per JSON type: a test that accepts any of them never looked at what the tool computed.
const constants: ReadonlyArray<readonly [ToolStubName, string]> = [
  ['constant-null', 'null'],
  ['constant-zero', '0'],
  ['constant-empty-string', '""'],
  ['constant-true', 'true'],
  ['constant-empty-array', '[]'],
  ['constant-empty-object', '{}'],
];

/**
 * Degenerate implementations of a tool: each constant, an echo of the input, and one that always throws
 * (with a message naming the tool, so a test that only checks "it threw" cannot tell it from a real error).
 */
export function toolStubs(toolName: string): readonly ToolStub[] {
  return [
    ...constants.map(([name, value]) => ({
      name,
      behaviour: `always returns ${value}`,
      source: `export default async function run() { return ${value}; }`,
    })),
    { name: 'echo-input', behaviour: 'returns its input unchanged', source: 'export default async function run(input) { return input; }' },
    {
      name: 'throw',
      behaviour: 'always throws',
      source: `export default async function run() { throw new Error(${JSON.stringify(`${toolName} failed: the input could not be processed`)}); }`,
    },
  ];
}
