import type { z } from 'zod';
import { ForgeError } from '../../core/index.js';

/** A guest called a capability with arguments its host method does not accept. */
export class CapabilityInputError extends ForgeError {
  readonly member: string;
  constructor(member: string, problems: string) {
    super({ name: 'CapabilityInputError', message: `${member}: ${problems}` });
    this.member = member;
  }
}

/**
 * Validates the guest's argument list for `member` (e.g. "forge.fetch"). The error message lists each
 * problem with its position so the author model can fix the call; `hint`, the rule behind them, is part of
 * the message because the guest only ever sees an error's name and message.
 */
export function parseCapabilityArguments<Schema extends z.ZodType>(
  schema: Schema,
  callArguments: readonly unknown[],
  member: string,
  hint?: string,
): z.infer<Schema> {
  const parsed = schema.safeParse(callArguments);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => (issue.path.length === 0 ? issue.message : `argument ${describePath(issue.path)}: ${issue.message}`))
    .join('; ');
  throw new CapabilityInputError(member, hint === undefined ? problems : `${problems}. ${hint}`);
}

function describePath(path: readonly PropertyKey[]): string {
  const [position, ...rest] = path;
  const head = typeof position === 'number' ? String(position + 1) : String(position);
  return rest.length === 0 ? head : `${head} (${rest.map(String).join('.')})`;
}
