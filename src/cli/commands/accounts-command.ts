import type { Command } from 'commander';
import { ConfigurationError } from '../../core/index.js';
import type { AccountQuotaView, QuotaLimitsRequest, QuotaView } from '../../accounts/index.js';
import { EXIT } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

function parseCount(option: string) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 0) throw new ConfigurationError(option, `must be a whole number, 0 or more, got "${value}".`, 'Leave the option out for no limit.');
    return parsed;
  };
}

function parseDollars(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || value.trim() === '') throw new ConfigurationError('--usd-per-day', `must be an amount of dollars, 0 or more, got "${value}".`, 'Write it as a plain number: --usd-per-day 2.50');
  return parsed;
}

interface SetOptions {
  concurrentRuns?: number;
  runsPerMinute?: number;
  tokensPerDay?: number;
  usdPerDay?: number;
  allowUnpricedModels?: boolean;
  apiKey?: string;
  json?: boolean;
}

function limitText(used: string, limit: number | null, format: (value: number) => string = String): string {
  return limit === null ? `${used} (unlimited)` : `${used} of ${format(limit)}`;
}

function quotaLines(title: string, view: QuotaView): string {
  const { limits, usage, resets } = view;
  const dollars = (value: number) => `$${value.toFixed(value < 1 ? 4 : 2)}`;
  const unpriced = usage.unpriced_calls_today === 0 ? '' : `, and ${usage.unpriced_calls_today} call${usage.unpriced_calls_today === 1 ? '' : 's'} of unpriced models (${limits.allow_unpriced_models ? 'allowed' : 'refused under a dollar limit'})`;
  return [
    `${title}${view.updated_at === null ? ': no quota (unlimited)' : ''}`,
    `  concurrent runs   ${limitText(`${usage.active_runs} queued or running`, limits.concurrent_runs)}`,
    `  runs per minute   ${limitText(`${usage.runs_last_minute} in the last minute`, limits.runs_per_minute)}${resets.runs_per_minute_at === null ? '' : `; the oldest leaves the window at ${resets.runs_per_minute_at}`}`,
    `  tokens per day    ${limitText(`${usage.tokens_today.total} today`, limits.tokens_per_day)}`,
    `  dollars per day   ${limitText(`${dollars(usage.usd_today)} today`, limits.usd_per_day, dollars)}${unpriced}`,
    `  daily limits reset at ${resets.daily_at} (00:00 UTC)`,
  ].join('\n');
}

function accountQuotaText(view: AccountQuotaView): string {
  const sections = [quotaLines(`Quota of ${view.account.email} (account ${view.account.user_id})`, view.quota), ...view.api_keys.map((key) => quotaLines(`Quota of its key ${key.name} (${key.key_id})`, key.quota))];
  return `${sections.join('\n\n')}\n`;
}

export function registerAccountsCommand(program: Command): void {
  const accounts = program.command('accounts').description('What accounts of `forge serve --auth accounts` may use: their quotas.');
  const quota = accounts
    .command('quota')
    .description('Quotas per account and per service key: runs at once, runs per minute, tokens and dollars per UTC day.')
    .addHelpText(
      'after',
      `
An account, or one of its keys, is unlimited until a quota is set. A start past runs at once or runs per
minute is refused (the API answers 429 with Retry-After, naming the quota); a model call past the
tokens or dollars of the day ends its run with halt reason quota_exceeded. Under a dollar limit a model
without a known price is refused unless --allow-unpriced-models (its calls then count tokens only).
\`set\` replaces the whole quota: limits left out are unlimited.

Examples:
  $ forge accounts quota set ada@example.com --concurrent-runs 5 --runs-per-minute 30 --usd-per-day 10
  $ forge accounts quota set ada@example.com --api-key 3f9a0c1d2e4b5a69 --tokens-per-day 2000000
  $ forge accounts quota show ada@example.com
  $ forge accounts quota clear ada@example.com`,
    );

  quota
    .command('set')
    .description('Set (replace) the quota of an account, or of one of its keys with --api-key.')
    .argument('<account>', 'the account, by email or id')
    .option('--concurrent-runs <n>', 'runs at once (queued or running)', parseCount('--concurrent-runs'))
    .option('--runs-per-minute <n>', 'runs started in any 60 seconds', parseCount('--runs-per-minute'))
    .option('--tokens-per-day <n>', 'model tokens (input and output) per UTC day', parseCount('--tokens-per-day'))
    .option('--usd-per-day <dollars>', 'dollars of model calls per UTC day, from the pricing table', parseDollars)
    .option('--allow-unpriced-models', 'under --usd-per-day, let calls to models without a known price go ahead (counted in tokens)')
    .option('--api-key <key-id>', 'the quota of this key of the account instead of the account\'s')
    .option('--json', 'print JSON')
    .action(async (account: string, options: SetOptions) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const limits: QuotaLimitsRequest = {
          ...(options.concurrentRuns === undefined ? {} : { concurrent_runs: options.concurrentRuns }),
          ...(options.runsPerMinute === undefined ? {} : { runs_per_minute: options.runsPerMinute }),
          ...(options.tokensPerDay === undefined ? {} : { tokens_per_day: options.tokensPerDay }),
          ...(options.usdPerDay === undefined ? {} : { usd_per_day: options.usdPerDay }),
          ...(options.allowUnpricedModels === true ? { allow_unpriced_models: true } : {}),
        };
        const view = await runtime.quotas.set(account, limits, ...(options.apiKey === undefined ? [] : [options.apiKey]));
        if (json) printJson(view);
        else printOut(accountQuotaText(view));
        return EXIT.ok;
      });
    });

  quota
    .command('show')
    .description('Show the quota of an account and of its keys, with what each used today and in the last minute.')
    .argument('<account>', 'the account, by email or id')
    .option('--json', 'print JSON')
    .action(async (account: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const view = await runtime.quotas.show(account);
        if (json) printJson(view);
        else printOut(accountQuotaText(view));
        return EXIT.ok;
      });
    });

  quota
    .command('clear')
    .description('Remove the quota of an account, or of one of its keys with --api-key: unlimited again.')
    .argument('<account>', 'the account, by email or id')
    .option('--api-key <key-id>', 'the quota of this key of the account instead of the account\'s')
    .option('--json', 'print JSON')
    .action(async (account: string, options: { apiKey?: string; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const view = await runtime.quotas.clear(account, ...(options.apiKey === undefined ? [] : [options.apiKey]));
        if (json) printJson(view);
        else printOut(`${view.cleared ? 'Cleared the quota' : 'There was no quota to clear'}; as it stands now:\n\n${accountQuotaText(view)}`);
        return EXIT.ok;
      });
    });
}
