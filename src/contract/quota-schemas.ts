import { z } from 'zod';
import { accountQuotaViewSchema } from '../accounts/quota-views.js';

/** A quota removed (DELETE /accounts/{account}/quota): the account's quotas after, and whether there was one. */
export const clearedQuotaSchema = accountQuotaViewSchema.extend({ cleared: z.boolean().describe('Whether there was a quota to remove.') }).strict();
