import { z } from 'zod';
import { commandOutputs } from './command-outputs.js';
import { errorOutputSchema } from './error-output.js';

/** The file under `docs/json/` that documents a command's output: `forge-tools-call.schema.json`. */
export function schemaFileName(command: string): string {
  return `forge-${command.replaceAll(' ', '-')}.schema.json`;
}

function documentText(title: string, description: string, schema: z.ZodType): string {
  const generated = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
  return `${JSON.stringify({ ...generated, title, description }, null, 2)}\n`;
}

/**
 * Every JSON Schema `npm run docs:json` writes to `docs/json/`, by file name: one per command that takes
 * `--json` (what it prints on success) and `error.schema.json` (what any of them prints on failure).
 * Generated from the zod schemas in `commandOutputs`; a test holds the committed files to this.
 */
export function jsonSchemaDocuments(): Record<string, string> {
  const documents: Record<string, string> = {
    'error.schema.json': documentText('forge … --json (failure)', 'What every forge command prints on stdout with --json when it fails, argument-parser errors included (exit code 1 or 2).', errorOutputSchema),
  };
  for (const [command, schema] of Object.entries(commandOutputs)) {
    documents[schemaFileName(command)] = documentText(`forge ${command} --json`, `What \`forge ${command} --json\` prints on stdout when it succeeds. Keys are snake_case; dollars are rounded to 1e-6, milliseconds to 0.1.`, schema);
  }
  return documents;
}
