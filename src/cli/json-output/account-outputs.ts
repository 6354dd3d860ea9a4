import { z } from 'zod';
import { apiKeyViewSchema, userViewSchema } from '../../accounts/index.js';

export const usersAddOutputSchema = z.object({ user: userViewSchema }).strict();
export const usersListOutputSchema = z.object({ users: z.array(userViewSchema) }).strict();
export const usersRemoveOutputSchema = z.object({ removed: userViewSchema }).strict();
export const apiKeysCreateOutputSchema = z.object({ key: z.string().describe('The key, shown this once.'), api_key: apiKeyViewSchema }).strict();
export const apiKeysListOutputSchema = z.object({ api_keys: z.array(apiKeyViewSchema) }).strict();
export const apiKeysRevokeOutputSchema = z.object({ revoked: apiKeyViewSchema }).strict();
