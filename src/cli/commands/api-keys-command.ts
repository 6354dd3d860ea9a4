import type { Command } from 'commander';
import { API_SCOPES, ConfigurationError, type ApiKeyRecord, type ApiScope } from '../../core/index.js';
import type { ForgeRuntime } from '../../compose/index.js';
import { EXIT, parsePositiveInteger } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

function parseScope(value: string, previous: ApiScope[] = []): ApiScope[] {
  const scopes = value.split(',').map((scope) => scope.trim()).filter((scope) => scope !== '');
  for (const scope of scopes) {
    if (!(API_SCOPES as readonly string[]).includes(scope)) throw new ConfigurationError('--scope', `"${scope}" is not a scope.`, `Scopes: ${API_SCOPES.join(', ')}.`);
  }
  return [...previous, ...(scopes as ApiScope[])];
}

/** The account a key command acts for: --user, or the only account there is. */
async function accountFor(runtime: ForgeRuntime, email: string | undefined): Promise<string> {
  if (email !== undefined) return (await runtime.accounts.requireUser(email)).id;
  const users = await runtime.accounts.listUsers();
  if (users.length === 1) return users[0]!.id;
  throw new ConfigurationError('--user', users.length === 0 ? 'there are no accounts to make keys for.' : `is needed: there are ${users.length} accounts.`, users.length === 0 ? 'Add one first: forge users add <email> --admin' : 'Name the account: --user <email> (forge users list shows them).');
}

function keyLine(key: ApiKeyRecord): string {
  const state = key.revokedAt !== null ? 'revoked' : key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now() ? 'expired' : 'live';
  return `${key.id}  ${key.name.padEnd(20)}  ${state.padEnd(7)}  ${key.scopes.join(',')}${key.expiresAt === null ? '' : `  expires ${key.expiresAt.slice(0, 10)}`}`;
}

export function registerApiKeysCommand(program: Command): void {
  const keys = program
    .command('api-keys')
    .description('Service keys of an account: sent as X-API-Key to `forge serve --auth accounts`, limited to their scopes.')
    .addHelpText(
      'after',
      `
A key is shown once, when it is made; Forge keeps only its sha256. A key acts as its account within its
scopes, until it expires or is revoked. Scopes: ${API_SCOPES.join(', ')}.

Examples:
  $ forge api-keys create --user ada@example.com --name ci --scope runs:read,runs:write --expires-in-days 90
  $ forge api-keys list --user ada@example.com
  $ forge api-keys revoke 3f9a0c1d2e4b5a69 --user ada@example.com`,
    );

  keys
    .command('create')
    .description('Make a key; it is printed once.')
    .requiredOption('--name <name>', 'what uses it (shown in lists)')
    .requiredOption('--scope <scopes>', 'what it may do, commas between; repeatable', parseScope)
    .option('--user <email>', 'the account it acts as (default: the only account)')
    .option('--expires-in-days <n>', 'it stops working after this many days', parsePositiveInteger('--expires-in-days'))
    .option('--json', 'print JSON')
    .action(async (options: { name: string; scope: ApiScope[]; user?: string; expiresInDays?: number; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { apiKeyView } = await import('../../accounts/index.js');
        const userId = await accountFor(runtime, options.user);
        const created = await runtime.apiKeys.createFor(userId, { name: options.name, scopes: options.scope, ...(options.expiresInDays === undefined ? {} : { expires_in_days: options.expiresInDays }) });
        if (json) printJson({ key: created.key, api_key: apiKeyView(created.record) });
        else printOut(`${created.key}\n\nKey ${created.record.id} (${created.record.scopes.join(', ')}): copy it now, it is not shown again. Send it as X-API-Key.\n`);
        return EXIT.ok;
      });
    });

  keys
    .command('list')
    .description('List an account\'s keys (never the keys themselves), revoked ones included.')
    .option('--user <email>', 'the account (default: the only account)')
    .option('--json', 'print JSON')
    .action(async (options: { user?: string; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { apiKeyView } = await import('../../accounts/index.js');
        const found = await runtime.apiKeys.list(await accountFor(runtime, options.user));
        if (json) printJson({ api_keys: found.map(apiKeyView) });
        else printOut(found.length === 0 ? 'No keys: make one with `forge api-keys create --name <name> --scope <scopes>`.\n' : `${found.map(keyLine).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  keys
    .command('revoke')
    .description('Revoke a key: it stops working at once.')
    .argument('<key-id>', 'the key\'s id (from forge api-keys list)')
    .option('--user <email>', 'the account (default: the only account)')
    .option('--json', 'print JSON')
    .action(async (keyId: string, options: { user?: string; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { apiKeyView } = await import('../../accounts/index.js');
        const userId = await accountFor(runtime, options.user);
        if (!(await runtime.apiKeys.revoke(userId, keyId))) throw new ConfigurationError('key-id', `no live key ${keyId} belongs to this account.`, 'List its keys with forge api-keys list.');
        const revoked = (await runtime.apiKeys.list(userId)).find((key) => key.id === keyId)!;
        if (json) printJson({ revoked: apiKeyView(revoked) });
        else printOut(`Revoked ${keyId} (${revoked.name}).\n`);
        return EXIT.ok;
      });
    });
}
