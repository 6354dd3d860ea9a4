import { z } from 'zod';
import type { ErrorInfo } from '../../core/index.js';

/** What to try when an error came without a hint of its own (an unexpected failure). */
export const FALLBACK_HINT = 'Run it again with FORGE_DEBUG=1 for the stack trace; if it still fails, report it with that output.';

/** How every command reports a failure with `--json`: one document on stdout, whatever failed. */
export const errorOutputSchema = z.object({
  error: z.object({
    name: z.string().describe('a stable error code, e.g. ConfigurationError, UsageError, ToolNotFoundError'),
    message: z.string(),
    hint: z.string().describe('what to change so the command succeeds'),
  }),
});
export type ErrorOutput = z.infer<typeof errorOutputSchema>;

/** `info` as the error document, with a hint always. */
export function errorDocument(info: ErrorInfo): ErrorOutput {
  return { error: { name: info.name, message: info.message, hint: info.hint ?? FALLBACK_HINT } };
}
