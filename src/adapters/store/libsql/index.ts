export { LibsqlStore, type SqlThread } from './libsql-store.js';
