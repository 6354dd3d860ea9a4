export { SECRET_VARIABLES, secretsFromEnvironment } from './environment-secrets.js';
export { MINIMUM_SECRET_LENGTH, REDACTED, SecretRedactor } from './secret-redactor.js';
export { MASKED_CREDENTIALS, maskUrlCredentials } from './url-credentials.js';
export { redactedCredentials } from './redacted-credentials.js';
