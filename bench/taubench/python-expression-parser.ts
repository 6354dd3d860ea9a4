import { PythonError } from './python-number.js';

/**
 * The syntax tree of a Python expression written with digits, `+ - * / ( ) .` and spaces only (what τ-bench's
 * `calculate` lets through to `eval`): int and float literals, `...`, `()`, unary `+`/`-`, binary
 * `+ - * / // **`, and calls (`(1)(2)` is valid syntax; it fails when run). `depth` counts nodes on
 * the longest path down, as CPython's compiler does when it refuses deep expressions.
 */
export type PythonExpression = { readonly depth: number } & (
  | { readonly kind: 'int'; readonly value: bigint }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'ellipsis' }
  | { readonly kind: 'empty-tuple' }
  | { readonly kind: 'unary'; readonly operator: '+' | '-'; readonly operand: PythonExpression }
  | { readonly kind: 'binary'; readonly operator: BinaryOperator; readonly left: PythonExpression; readonly right: PythonExpression }
  | { readonly kind: 'call'; readonly callee: PythonExpression; readonly argument?: CallArgument }
);

export type BinaryOperator = '+' | '-' | '*' | '/' | '//' | '**';

/** A call's one possible argument: plain, `*value` or `**value` (a second would need a comma). */
export interface CallArgument {
  readonly unpack: '' | '*' | '**';
  readonly value: PythonExpression;
}

/**
 * Parses `source` as CPython 3.11's `eval` does, raising its SyntaxError messages: tokenizer errors
 * first wherever they are (`unmatched ')'`, leading zeros, more than 200 open parentheses), then
 * `'(' was never closed` when the parser runs into the end inside parentheses, then what its
 * second, diagnostic pass says (`Perhaps you forgot a comma?` for two expressions side by side in
 * parentheses, starred groups), else `invalid syntax`.
 */
export function parsePythonExpression(source: string): PythonExpression {
  const text = source.replace(/^[ \t]+/, '');
  if (text.trim() === '') throw syntaxError('invalid syntax', 0);
  const { tokens, level } = tokenize(text);
  const expression = new Parser(tokens, level, false).parseEval() ?? new Parser(tokens, level, true).parseEval();
  if (expression === undefined) throw syntaxError('invalid syntax');
  // CPython's compiler gives up below this depth (RecursionError), measured on 3.11.
  if (expression.depth > maxCompiledDepth) throw new PythonError('RecursionError', 'maximum recursion depth exceeded during compilation');
  return expression;
}

const maxCompiledDepth = 2991;
const maxParenthesisLevel = 200;
/**
 * CPython's parser stack (MAXSTACK 6000) as this parser counts it, measured on 3.11: a unary operator
 * costs 1, `**` 2, a parenthesis 28, and a MemoryError comes at 5976.
 */
const parserStackLimit = 5976;
const parenthesisStackCost = 28;

interface Token {
  readonly kind: 'number' | 'operator' | 'end';
  readonly text: string;
  /** Open parentheses after this token, as CPython's tokenizer records it. */
  readonly level: number;
}

function syntaxError(message: string, line = 1): PythonError {
  return new PythonError('SyntaxError', `${message} (<string>, line ${line})`);
}

function tokenize(text: string): { tokens: Token[]; level: number } {
  const tokens: Token[] = [];
  let level = 0;
  let index = 0;
  const isDigit = (character: string | undefined) => character !== undefined && character >= '0' && character <= '9';
  while (index < text.length) {
    const character = text[index]!;
    if (character === ' ') {
      index += 1;
      continue;
    }
    if (isDigit(character) || (character === '.' && isDigit(text[index + 1]))) {
      const match = /^(\d*)(\.\d*)?/.exec(text.slice(index))!;
      const [literal, whole = '', fraction] = match;
      if (fraction === undefined && /^0+[1-9]/.test(whole)) throw syntaxError('leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers');
      tokens.push({ kind: 'number', text: literal, level });
      index += literal.length;
      continue;
    }
    const operator = ['...', '**', '//'].find((candidate) => text.startsWith(candidate, index)) ?? character;
    if (operator === '(') {
      if (level >= maxParenthesisLevel) throw syntaxError('too many nested parentheses');
      level += 1;
    } else if (operator === ')') {
      if (level === 0) throw syntaxError("unmatched ')'");
      level -= 1;
    }
    tokens.push({ kind: 'operator', text: operator, level });
    index += operator.length;
  }
  tokens.push({ kind: 'end', text: '', level });
  return { tokens, level };
}

/**
 * A PEG parser over the reachable part of Python's grammar: every rule returns undefined on failure
 * with the position restored (so `1 + )` still parses `1` as a sum), and errors are thrown. With
 * `diagnostic` it adds the `invalid_*` rules CPython tries on its second pass.
 */
class Parser {
  private position = 0;
  private stack = 0;
  /** Sums already parsed, by start position and pass (PEG memoization: the diagnostic rules re-read the same spans). */
  private readonly sums = new Map<number, { node: PythonExpression | undefined; end: number }>();

  constructor(
    private readonly tokens: readonly Token[],
    private readonly finalLevel: number,
    private diagnostic: boolean,
  ) {}

  parseEval(): PythonExpression | undefined {
    const expression = this.expression();
    return expression !== undefined && this.peek().kind === 'end' ? expression : undefined;
  }

  /** The next token. Reaching the end inside parentheses is the tokenizer's error, raised at once. */
  private peek(): Token {
    const token = this.tokens[this.position]!;
    if (token.kind === 'end' && this.finalLevel > 0) throw syntaxError("'(' was never closed");
    return token;
  }

  private at(text: string): boolean {
    const token = this.peek();
    return token.kind === 'operator' && token.text === text;
  }

  private expression(): PythonExpression | undefined {
    if (this.diagnostic) this.checkMissingComma();
    return this.sum();
  }

  /** `invalid_expression`: an expression right after another, inside parentheses. */
  private checkMissingComma(): void {
    const start = this.position;
    if (this.sum() !== undefined) {
      this.diagnostic = false;
      try {
        if (this.sum() !== undefined && this.tokens[this.position - 1]!.level > 0) throw syntaxError('invalid syntax. Perhaps you forgot a comma?');
      } finally {
        this.diagnostic = true;
      }
    }
    this.position = start;
  }

  private sum(): PythonExpression | undefined {
    const key = this.position * 2 + (this.diagnostic ? 1 : 0);
    const known = this.sums.get(key);
    if (known !== undefined) {
      this.position = known.end;
      return known.node;
    }
    const node = this.leftAssociative(['+', '-'], () => this.term());
    this.sums.set(key, { node, end: this.position });
    return node;
  }

  private term(): PythonExpression | undefined {
    return this.leftAssociative(['*', '/', '//'], () => this.factor());
  }

  private leftAssociative(operators: readonly BinaryOperator[], operand: () => PythonExpression | undefined): PythonExpression | undefined {
    let left = operand();
    if (left === undefined) return undefined;
    for (;;) {
      const before = this.position;
      const operator = operators.find((candidate) => this.at(candidate));
      if (operator === undefined) return left;
      this.position += 1;
      const right = operand();
      if (right === undefined) {
        this.position = before;
        return left;
      }
      left = binary(operator, left, right);
    }
  }

  /**
   * `factor: ('+' | '-') factor | power` and `power: primary ['**' factor]`, read as a loop of
   * segments (signs, then a primary) joined by `**`, so long chains cost no recursion here.
   */
  private factor(): PythonExpression | undefined {
    const start = this.position;
    const segments: { signs: ('+' | '-')[]; base: PythonExpression }[] = [];
    let stackCost = 0;
    for (;;) {
      const segmentStart = this.position;
      const signs: ('+' | '-')[] = [];
      for (let sign = this.signAhead(); sign !== undefined; sign = this.signAhead()) {
        signs.push(sign);
        this.position += 1;
        stackCost += 1;
        this.reserveStack(1);
      }
      const base = this.primary();
      if (base === undefined) {
        this.position = segments.length === 0 ? start : segmentStart - 1;
        break;
      }
      segments.push({ signs, base });
      if (!this.at('**')) break;
      this.position += 1;
      stackCost += 2;
      this.reserveStack(2);
    }
    this.stack -= stackCost;
    let result: PythonExpression | undefined;
    for (const { signs, base } of segments.reverse()) {
      const power = result === undefined ? base : binary('**', base, result);
      result = signs.reduceRight<PythonExpression>((operand, operator) => ({ kind: 'unary', operator, operand, depth: operand.depth + 1 }), power);
    }
    return result;
  }

  private signAhead(): '+' | '-' | undefined {
    if (this.at('+')) return '+';
    return this.at('-') ? '-' : undefined;
  }

  private reserveStack(cost: number): void {
    this.stack += cost;
    if (this.stack >= parserStackLimit) throw new PythonError('MemoryError', '');
  }

  /** An atom and its trailers: calls, and `.` which would need a name after it. */
  private primary(): PythonExpression | undefined {
    let node = this.atom();
    if (node === undefined) return undefined;
    for (;;) {
      const before = this.position;
      if (this.at('(')) {
        this.position += 1;
        if (this.at(')')) {
          this.position += 1;
          node = { kind: 'call', callee: node, depth: node.depth + 1 };
          continue;
        }
        const argument = this.callArgument();
        if (argument !== undefined && this.at(')')) {
          this.position += 1;
          node = { kind: 'call', callee: node, argument, depth: Math.max(node.depth, argument.value.depth + (argument.unpack === '' ? 0 : 1)) + 1 };
          continue;
        }
      } else if (this.at('.')) {
        this.position += 1;
        this.peek();
      }
      this.position = before;
      return node;
    }
  }

  private callArgument(): CallArgument | undefined {
    const start = this.position;
    const unpack = this.at('*') ? '*' : this.at('**') ? '**' : '';
    this.position += unpack === '' ? 0 : 1;
    const value = this.expression();
    if (value === undefined) {
      this.position = start;
      return undefined;
    }
    return { unpack, value };
  }

  private atom(): PythonExpression | undefined {
    const token = this.peek();
    if (token.kind === 'number') {
      this.position += 1;
      return token.text.includes('.') ? { kind: 'float', value: Number(token.text), depth: 1 } : { kind: 'int', value: BigInt(token.text), depth: 1 };
    }
    if (this.at('...')) {
      this.position += 1;
      return { kind: 'ellipsis', depth: 1 };
    }
    return this.at('(') ? this.parenthesized() : undefined;
  }

  /** `tuple | group | genexp`; only `()` can be a tuple without commas, and a genexp needs `for`. */
  private parenthesized(): PythonExpression | undefined {
    const start = this.position;
    this.position += 1;
    this.reserveStack(parenthesisStackCost);
    try {
      if (this.at(')')) {
        this.position += 1;
        return { kind: 'empty-tuple', depth: 1 };
      }
      if (this.at('*')) {
        this.position += 1;
        this.sum();
      } else {
        const inner = this.expression();
        if (inner !== undefined && this.at(')')) {
          this.position += 1;
          return inner;
        }
      }
      if (this.diagnostic) this.checkStarredGroup(start);
      this.position = start;
      return undefined;
    } finally {
      this.stack -= parenthesisStackCost;
    }
  }

  /** `invalid_group`: `(*x)` and `(**x)`. */
  private checkStarredGroup(start: number): void {
    for (const [star, message] of [
      ['*', 'cannot use starred expression here'],
      ['**', 'cannot use double starred expression here'],
    ] as const) {
      this.position = start + 1;
      if (!this.at(star)) continue;
      this.position += 1;
      if (this.expression() !== undefined && this.at(')')) throw syntaxError(message);
    }
  }
}

function binary(operator: BinaryOperator, left: PythonExpression, right: PythonExpression): PythonExpression {
  return { kind: 'binary', operator, left, right, depth: Math.max(left.depth, right.depth) + 1 };
}
