export { AccountService, SESSION_DAYS, emailSchema, newUserSchema, type AccountServiceOptions, type SignedIn } from './account-service.js';
export { ApiKeyService, apiKeyRequestSchema, type ApiKeyRequest, type CreatedApiKey } from './api-key-service.js';
export { AccountPermissionError, AuthenticationError } from './account-errors.js';
export { ACCESS_TOKEN_SECONDS, csrfTokenFor, signAccessToken, verifyAccessToken } from './access-token.js';
export { loadSessionKey } from './session-key.js';
export { passwordSchema } from './password-hashing.js';
export { apiKeyView, apiKeyViewSchema, userView, userViewSchema, type ApiKeyView, type UserView } from './account-views.js';
export { ProviderKeyService, SecretKeyError } from './provider-key-service.js';
