import { z } from 'zod';
import { durationSchema } from './common-schemas.js';

/** `forge store copy --json`: what went from the embedded store into the PostgreSQL one. */
export const storeCopyOutputSchema = z
  .object({
    from: z.string().describe('the store copied (FORGE_DATABASE_URL, or forge.db in the home), credentials masked'),
    to: z.string().describe('the PostgreSQL store it went into, credentials masked'),
    tables: z.array(z.object({ table: z.string(), rows: z.number().int().nonnegative() }).strict()).describe('every table, in the order copied (owners before what references them)'),
    rows: z.number().int().nonnegative().describe('all rows copied'),
    duration_ms: durationSchema,
  })
  .strict();
