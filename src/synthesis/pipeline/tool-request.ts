import { z } from 'zod';
import { TOOL_NAME_PATTERN } from '../../core/index.js';
import { inputSchemaFromSignature } from './signature-schema.js';

/**
 * What the agent asks for with `request_tool`: the contract of a tool that does not exist yet. It is all
 * the tester ever sees of the tool. The model-facing input schema of the finished tool is derived from
 * `signature` (see signature-schema.ts), never from what the author model writes; a signature that
 * cannot be read is refused here, before any synthesis starts.
 */
export const toolRequestSchema = z.object({
  name: z.string().regex(TOOL_NAME_PATTERN, { error: 'must match ^[a-zA-Z0-9_-]{1,64}$' }).describe('the new tool\'s name, e.g. count_links'),
  purpose: z.string().trim().min(1).max(2000).describe('what the tool must do, precisely enough to test it'),
  signature: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .describe('its input and output, e.g. "count_links({url: string, max_links?: integer}) -> {count: integer}"; field types: string, number, integer, boolean, object, array, or T[]')
    .superRefine((signature, context) => {
      try {
        inputSchemaFromSignature(signature);
      } catch (error) {
        context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      }
    }),
});

export type ToolRequest = z.infer<typeof toolRequestSchema>;
