export { openStore } from './open-store.js';
export { databaseUrlFromEnv } from '../../config/database-url-from-env.js';
export { LibsqlStore } from './libsql/index.js';
export { copyStore, StoreCopyError, type StoreCopy, type TableCopied } from './store-copy.js';
export { DuplicateRecordError } from './duplicate-record-error.js';
export { SchemaVersionError } from './migrations/index.js';
export { SecretBoxError, createSecretBox, installationSecretBox, newSecretKey, sealedKeyId, secretBoxFromText, secretKeyFile, secretKeyId, secretKeySource, type SecretBox } from '../../security/secret-box.js';
