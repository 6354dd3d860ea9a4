export { LibsqlStore } from './libsql-store.js';
