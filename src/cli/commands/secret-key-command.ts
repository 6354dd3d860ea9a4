import type { Command } from 'commander';
import { ConfigurationError } from '../../core/index.js';
import { EXIT } from '../command-errors.js';
import { firstLineOfStdin } from '../secret-input.js';
import { printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

export function registerSecretKeyCommand(program: Command): void {
  const secretKey = program
    .command('secret-key')
    .description('The key that seals stored secrets (provider keys, MCP header values) with AES-256-GCM.')
    .addHelpText(
      'after',
      `
The key is FORGE_SECRET_KEY when set, else FORGE_HOME/secret.key (made when the first secret is stored).
Sealed secrets carry the id of the key that sealed them; forge serve refuses to start when they do not
open, naming the key ids. Only ids are ever shown, never keys.

Examples:
  $ forge secret-key status
  $ forge secret-key rotate
  $ openssl rand -hex 32 | forge secret-key rotate --new-key-stdin   # with FORGE_SECRET_KEY`,
    );

  secretKey
    .command('status')
    .description('Where the key is, its id, and whether every sealed secret opens with it.')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { secretKeyStatus } = await import('../../compose/index.js');
        const status = await secretKeyStatus(runtime);
        const sealed = status.sealed.providerKeys + status.sealed.mcpServers;
        if (json) printJson({ source: status.source, key_id: status.keyId, sealed: { provider_keys: status.sealed.providerKeys, mcp_servers: status.sealed.mcpServers }, unreadable: status.unreadable });
        else {
          const where = { environment: 'FORGE_SECRET_KEY', file: 'FORGE_HOME/secret.key', missing: 'none yet' }[status.source];
          printOut(`key        ${where}${status.keyId === null ? '' : ` (id ${status.keyId})`}\nsealed     ${status.sealed.providerKeys} provider key(s), ${status.sealed.mcpServers} MCP server header set(s)\nunreadable ${status.unreadable}${status.unreadable === 0 ? '' : ' — the key in use is not the one that sealed them'}\n`);
        }
        return status.unreadable === 0 || sealed === 0 ? EXIT.ok : EXIT.failed;
      });
    });

  secretKey
    .command('rotate')
    .description('Re-encrypt every sealed secret under a new key (all must open with the current one first).')
    .option('--new-key-stdin', 'read the new key (64 hex digits or base64 of 32 bytes) from stdin; required with FORGE_SECRET_KEY')
    .option('--json', 'print JSON')
    .action(async (options: { newKeyStdin?: boolean; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { rotateSecretKey } = await import('../../compose/index.js');
        const newKey = options.newKeyStdin === true ? await firstLineOfStdin() : undefined;
        if (newKey !== undefined && newKey.trim() === '') throw new ConfigurationError('--new-key-stdin', 'stdin held no key.', 'Pipe one in: openssl rand -hex 32 | forge secret-key rotate --new-key-stdin');
        const rotation = await rotateSecretKey(runtime, newKey === undefined ? {} : { newKey });
        if (json) {
          printJson({ from_key_id: rotation.fromKeyId, to_key_id: rotation.toKeyId, resealed: { provider_keys: rotation.resealed.providerKeys, mcp_servers: rotation.resealed.mcpServers }, key_file: rotation.keyFile, previous_key_file: rotation.previousKeyFile });
        } else {
          const total = rotation.resealed.providerKeys + rotation.resealed.mcpServers;
          printOut(
            `Resealed ${total} secret${total === 1 ? '' : 's'} from key ${rotation.fromKeyId} to ${rotation.toKeyId}.\n${
              rotation.keyFile === null
                ? `Set FORGE_SECRET_KEY to the new key (id ${rotation.toKeyId}) before the next start.\n`
                : `The new key is ${rotation.keyFile}; the old one was kept as ${rotation.previousKeyFile}: delete it once everything works.\n`
            }`,
          );
        }
        return EXIT.ok;
      });
    });
}
