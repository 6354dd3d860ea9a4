import { z } from 'zod';
import { CREDENTIAL_PROVIDERS } from '../core/index.js';

/** An account's model provider keys as the API shows them: never the key, only its last 4 characters. */
export const providerKeySchema = z
  .object({ provider: z.enum(CREDENTIAL_PROVIDERS), last4: z.string().describe('The last 4 characters: all of a key that is ever shown again.'), created_at: z.string(), updated_at: z.string() })
  .strict();

export const providerKeyListSchema = z.object({ provider_keys: z.array(providerKeySchema) }).strict();
export const providerKeyRequestSchema = z.object({ provider: z.enum(CREDENTIAL_PROVIDERS), key: z.string().min(1).max(500) }).strict();

