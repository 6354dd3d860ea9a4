import { NotFoundError, type QuotaSubject, type Store } from '../core/index.js';
import { minuteWindowStart, startOfUtcDay } from './quota-windows.js';
import { quotaLimitsFrom, quotaLimitsRequestSchema, quotaView, type AccountQuotaView, type QuotaLimitsRequest, type QuotaView } from './quota-views.js';

/**
 * Per-account and per-key quotas: set, shown with their use, cleared. Unlimited until an admin sets
 * one (the CLI acts as the installation's operator; the API lets only admins in). Enforced at a run's
 * start (`admitRun`) and before each model call (`quotaCheck`).
 */
export class QuotaService {
  constructor(
    private readonly store: Pick<Store, 'accounts' | 'quotas'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** An account by id or email; `NotFoundError` naming how to list them. */
  async account(reference: string): Promise<{ id: string; email: string }> {
    const user = (await this.store.accounts.getUser(reference)) ?? (await this.store.accounts.findUserByEmail(reference));
    if (user === undefined) throw new NotFoundError('account', reference, 'List accounts with `forge users list` (or GET /api/v1/users).');
    return { id: user.id, email: user.email };
  }

  /** Sets (replaces) the quota of an account, or of one of its keys with `apiKeyId`; limits left out are unlimited. */
  async set(accountReference: string, request: QuotaLimitsRequest, apiKeyId?: string): Promise<AccountQuotaView> {
    const limits = quotaLimitsFrom(quotaLimitsRequestSchema.parse(request));
    const account = await this.account(accountReference);
    const subject = await this.subjectOf(account.id, apiKeyId);
    await this.store.quotas.set({ subject, userId: account.id, ...limits });
    return this.show(account.id);
  }

  /** Removes the quota of an account or of one of its keys (unlimited again); the account's quotas as they then stand. */
  async clear(accountReference: string, apiKeyId?: string): Promise<AccountQuotaView & { readonly cleared: boolean }> {
    const account = await this.account(accountReference);
    const cleared = await this.store.quotas.clear(await this.subjectOf(account.id, apiKeyId));
    return { ...(await this.show(account.id)), cleared };
  }

  /** The account's quota (unlimited when none is set) and its keys' quotas, each with what it used. */
  async show(accountReference: string): Promise<AccountQuotaView> {
    const account = await this.account(accountReference);
    const quotas = await this.store.quotas.listForUser(account.id);
    const keys = await this.store.accounts.listApiKeys(account.id);
    const accountSubject: QuotaSubject = { kind: 'account', id: account.id };
    const keyQuotas = quotas.filter((quota) => quota.subject.kind === 'api-key');
    return {
      account: { user_id: account.id, email: account.email },
      quota: await this.view(accountSubject),
      api_keys: await Promise.all(keyQuotas.map(async (quota) => ({ key_id: quota.subject.id, name: keys.find((key) => key.id === quota.subject.id)?.name ?? '(removed)', quota: await this.view(quota.subject) }))),
    };
  }

  private async view(subject: QuotaSubject): Promise<QuotaView> {
    const at = this.now();
    const [quota, usage] = await Promise.all([this.store.quotas.get(subject), this.store.quotas.usage(subject, { runsSince: minuteWindowStart(at).toISOString(), callsSince: startOfUtcDay(at).toISOString() })]);
    return quotaView(subject, quota, usage, at);
  }

  private async subjectOf(userId: string, apiKeyId: string | undefined): Promise<QuotaSubject> {
    if (apiKeyId === undefined) return { kind: 'account', id: userId };
    const key = await this.store.accounts.getApiKey(apiKeyId);
    if (key?.userId !== userId) throw new NotFoundError('API key of the account', apiKeyId, 'List the account\'s keys with `forge api-keys list` (or GET /api/v1/api-keys as the account).');
    return { kind: 'api-key', id: apiKeyId };
  }
}
