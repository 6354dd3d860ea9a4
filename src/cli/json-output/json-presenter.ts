/**
 * How precise each kind of figure is worth printing, by the suffix of its key: dollars to a millionth,
 * milliseconds to a tenth, rates and ratios to 1e-4. Raw floating-point sums (`0.00021280000000000002`)
 * say nothing a person or script can use beyond that.
 */
const PRECISION_BY_SUFFIX: readonly (readonly [suffix: string, decimals: number])[] = [
  ['_usd', 6],
  ['_ms', 1],
  ['_rate', 4],
  ['_ratio', 4],
];

function rounded(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const result = Math.round(value * factor) / factor;
  return Object.is(result, -0) ? 0 : result;
}

function decimalsFor(key: string): number | undefined {
  return PRECISION_BY_SUFFIX.find(([suffix]) => key.endsWith(suffix))?.[1];
}

function present(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'number') {
    const decimals = key === undefined ? undefined : decimalsFor(key);
    return decimals === undefined ? value : rounded(value, decimals);
  }
  if (Array.isArray(value)) return value.map((item: unknown) => present(item, key));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, present(item, name)]));
}

/**
 * `value` as every `--json` output prints it: plain JSON data (class instances by their `toJSON`,
 * `undefined` fields dropped) with every figure rounded to its meaningful precision (see
 * `PRECISION_BY_SUFFIX`); a figure in a list takes its list's key (`durations_ms: [..]`). Keys are
 * already snake_case: each command's output schema (`commandOutputs`) says so and the contract test holds it.
 */
export function presentJson(value: unknown): unknown {
  return present(JSON.parse(JSON.stringify(value) ?? 'null') as unknown, undefined);
}
