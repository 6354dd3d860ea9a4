export { ForgeApiError, ForgeClient, type ForgeClientOptions, type RunEventRead } from './forge-client.js';
