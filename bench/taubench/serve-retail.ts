/**
 * Serves the τ-bench retail world as an MCP server on 127.0.0.1 until interrupted, for trying it by
 * hand with Forge:
 *
 *   npx tsx bench/taubench/serve-retail.ts [--port N]
 */
import { parseArgs } from 'node:util';
import { startRetailMcpServer } from './index.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not ${values.port}`);
  process.exit(2);
}

const server = await startRetailMcpServer({
  port,
  onCall: (call) => console.log(`${call.isError ? '✗' : '✓'} ${call.tool} ${JSON.stringify(call.arguments)} → ${call.result.length > 160 ? `${call.result.slice(0, 160)}…` : call.result}`),
});
const { host } = new URL(server.url);
console.log(`τ-bench retail MCP server: ${server.url}`);
console.log(`Add it to Forge: FORGE_ALLOW_HOSTS=${host} npx forge mcp add taubench-retail ${server.url}`);
console.log('Each call is printed as it is answered; Ctrl-C stops the server (the state is not kept).');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
