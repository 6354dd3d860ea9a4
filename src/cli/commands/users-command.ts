import type { Command } from 'commander';
import type { UserRecord } from '../../core/index.js';
import { EXIT } from '../command-errors.js';
import { readSecret } from '../secret-input.js';
import { printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

function userLine(user: UserRecord): string {
  return `${user.email.padEnd(32)}  ${user.role.padEnd(5)}  ${user.createdAt.slice(0, 19).replace('T', ' ')}  ${user.id}`;
}

export function registerUsersCommand(program: Command): void {
  const users = program
    .command('users')
    .description('The accounts that sign in to `forge serve --auth accounts`.')
    .addHelpText(
      'after',
      `
Each account sees and acts on only its own runs, conversations, approvals and keys. Runs and
conversations stored before accounts existed (by the CLI, or a server without accounts) belong to the
first admin. Passwords are asked without echo on a terminal, or read from the first line of stdin.

Examples:
  $ forge users add ada@example.com --admin
  $ printf '%s\\n' "$PASSWORD" | forge users add bob@example.com
  $ forge users list`,
    );

  users
    .command('add')
    .description('Make an account (argon2id-hashed password, at least 10 characters).')
    .argument('<email>', 'the email it signs in with')
    .option('--admin', 'an admin (manages accounts); the first account should be one')
    .option('--json', 'print JSON')
    .action(async (email: string, options: { admin?: boolean; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { userView } = await import('../../accounts/index.js');
        const password = await readSecret('password');
        const user = await runtime.accounts.addUser({ email, password, role: options.admin === true ? 'admin' : 'user' });
        if (json) printJson({ user: userView(user) });
        else printOut(`Added ${user.email} (${user.role}). Sign in with POST /api/v1/auth/login on forge serve.\n`);
        return EXIT.ok;
      });
    });

  users
    .command('list')
    .description('List accounts, oldest first.')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { userView } = await import('../../accounts/index.js');
        const found = await runtime.accounts.listUsers();
        if (json) printJson({ users: found.map(userView) });
        else printOut(found.length === 0 ? 'No accounts yet: add one with `forge users add <email> --admin`.\n' : `${found.map(userLine).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  users
    .command('remove')
    .description('Remove an account with its sign-ins and keys (its runs stay, unreachable over the API).')
    .argument('<email>', 'the account to remove')
    .option('--json', 'print JSON')
    .action(async (email: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { userView } = await import('../../accounts/index.js');
        const user = await runtime.accounts.removeUser(email);
        if (json) printJson({ removed: userView(user) });
        else printOut(`Removed ${user.email}; its sessions and keys no longer work.\n`);
        return EXIT.ok;
      });
    });
}
