import { forgeEventSchema, type ForgeEvent } from '../core/index.js';
import {
  accountQuotaViewSchema,
  agentDetailSchema,
  agentDiffSchema,
  agentEditedSchema,
  agentListSchema,
  agentRemovedSchema,
  agentVersionsSchema,
  apiKeyListSchema,
  approvalAnswerSchema,
  approvalGrantListSchema,
  approvalGrantSchema,
  approvalListSchema,
  conversationDetailSchema,
  conversationListSchema,
  conversationSchema,
  createdApiKeySchema,
  customerProductListSchema,
  customerProductSchema,
  customerPurchaseSchema,
  customerUsageSchema,
  errorBodySchema,
  meSchema,
  policyChangeSchema,
  policyShowSchema,
  policyTestSchema,
  providerKeyListSchema,
  runListSchema,
  runSchema,
  savedSkillSchema,
  sellerProductSchema,
  signedInSchema,
  signedOutSchema,
  skillDetailSchema,
  skillListSchema,
  skillReplaySchema,
  startedRunSchema,
  type AccountQuotaView,
  type AgentDefinitionInput,
  type AgentRunRequest,
  type AgentYamlRequest,
  type ApiApproval,
  type ApiConversation,
  type ApiKeyView,
  type ApiRun,
  type ApprovalAnswer,
  type ConversationDetail,
  type CreatedApiKeyBody,
  type CustomerProduct,
  type CustomerPurchase,
  type CustomerUsage,
  type MeBody,
  type QuotaLimitsRequest,
  type RunList,
  type SellerProduct,
  type SignedInBody,
  type StartedRun,
  type StartRunRequest,
} from '../contract/index.js';
import type { z } from 'zod';

/** An API error as the server sent it (`{"error": {name, message, hint}}`), with its HTTP status. */
export class ForgeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint: string | undefined,
  ) {
    super(message);
    this.name = code;
  }
}

export interface ForgeClientOptions {
  /** The server's origin, e.g. http://127.0.0.1:7700. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer <token>`: the server's FORGE_ADMIN_PASSWORD, or an account's access token. */
  readonly token?: string;
  /** A service key, sent as `X-API-Key`. */
  readonly apiKey?: string;
  readonly fetch?: typeof fetch;
}

/** What a run's event stream delivered: events in order, and how it ended. */
export interface RunEventRead {
  readonly events: ForgeEvent[];
  /** `end` (run-end or run-pause, or the server closed the stream), `shutdown` (reconnect later), `aborted`. */
  readonly ended: 'end' | 'shutdown' | 'aborted';
  /** The seq to send as Last-Event-ID to go on. */
  readonly lastSeq: number;
}

/**
 * The typed client of Forge's API: every body is validated with the same zod schemas the server uses,
 * so a field the server renamed fails here loudly, not three screens later.
 */
export class ForgeClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ForgeClientOptions) {
    this.fetch = options.fetch ?? fetch;
  }

  private accessToken: string | undefined;

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const token = this.accessToken ?? this.options.token;
    return { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...(this.options.apiKey === undefined ? {} : { 'x-api-key': this.options.apiKey }), ...extra };
  }

  /** Signs in; later calls send the access token. */
  async login(email: string, password: string): Promise<SignedInBody> {
    const signedIn = await this.call('POST', '/api/v1/auth/login', signedInSchema, { email, password });
    this.accessToken = signedIn.access_token;
    return signedIn;
  }

  /** Trades the refresh token for a new pair; later calls send the new access token. */
  async refresh(refreshToken: string): Promise<SignedInBody> {
    const signedIn = await this.call('POST', '/api/v1/auth/refresh', signedInSchema, { refresh_token: refreshToken });
    this.accessToken = signedIn.access_token;
    return signedIn;
  }

  async logout(): Promise<boolean> {
    return (await this.call('POST', '/api/v1/auth/logout', signedOutSchema, {})).signed_out;
  }

  async signup(email: string, password: string): Promise<SignedInBody> {
    const signedIn = await this.call('POST', '/api/v1/auth/signup', signedInSchema, { email, password });
    this.accessToken = signedIn.access_token;
    return signedIn;
  }

  me(): Promise<MeBody> {
    return this.call('GET', '/api/v1/auth/me', meSchema);
  }

  createApiKey(request: { name: string; scopes: ApiKeyView['scopes']; expires_in_days?: number }): Promise<CreatedApiKeyBody> {
    return this.call('POST', '/api/v1/api-keys', createdApiKeySchema, request);
  }

  async listApiKeys(): Promise<ApiKeyView[]> {
    return (await this.call('GET', '/api/v1/api-keys', apiKeyListSchema)).api_keys;
  }

  saveSkill(request: { run_id: string; name?: string; description?: string }): Promise<z.infer<typeof savedSkillSchema>> {
    return this.call('POST', '/api/v1/skills', savedSkillSchema, request);
  }

  async listSkills(): Promise<z.infer<typeof skillListSchema>['skills']> {
    return (await this.call('GET', '/api/v1/skills', skillListSchema)).skills;
  }

  getSkill(skill: string): Promise<z.infer<typeof skillDetailSchema>> {
    return this.call('GET', `/api/v1/skills/${encodeURIComponent(skill)}`, skillDetailSchema);
  }

  importSkill(document: Record<string, unknown>): Promise<z.infer<typeof savedSkillSchema>> {
    return this.call('POST', '/api/v1/skills/import', savedSkillSchema, { document });
  }

  runSkill(skill: string, inputs: Record<string, unknown>, options: { dry_run?: boolean } = {}): Promise<z.infer<typeof skillReplaySchema>> {
    return this.call('POST', `/api/v1/skills/${encodeURIComponent(skill)}/run`, skillReplaySchema, { inputs, ...options });
  }

  publishProduct(request: { skill: string; name: string; description: string; price_minor: number; currency: string; output_fields?: string[]; published?: boolean }): Promise<SellerProduct> {
    return this.call('POST', '/api/v1/marketplace/products', sellerProductSchema, request);
  }

  unpublishProduct(name: string): Promise<SellerProduct> {
    return this.call('POST', `/api/v1/marketplace/products/${encodeURIComponent(name)}/unpublish`, sellerProductSchema, {});
  }

  async listProducts(): Promise<CustomerProduct[]> {
    return (await this.call('GET', '/api/v1/marketplace/products', customerProductListSchema)).products;
  }

  getProduct(name: string): Promise<CustomerProduct> {
    return this.call('GET', `/api/v1/marketplace/products/${encodeURIComponent(name)}`, customerProductSchema);
  }

  runProduct(name: string, inputs: Record<string, unknown>): Promise<CustomerPurchase> {
    return this.call('POST', `/api/v1/marketplace/products/${encodeURIComponent(name)}/runs`, customerPurchaseSchema, { inputs });
  }

  getPurchase(purchaseId: string): Promise<CustomerPurchase> {
    return this.call('GET', `/api/v1/marketplace/purchases/${encodeURIComponent(purchaseId)}`, customerPurchaseSchema);
  }

  usage(): Promise<CustomerUsage> {
    return this.call('GET', '/api/v1/marketplace/usage', customerUsageSchema);
  }

  setProviderKey(provider: string, key: string): Promise<z.infer<typeof providerKeyListSchema>['provider_keys'][number]> {
    return this.call('POST', '/api/v1/settings/provider-keys', providerKeyListSchema.shape.provider_keys.element, { provider, key });
  }

  async listProviderKeys(): Promise<z.infer<typeof providerKeyListSchema>['provider_keys']> {
    return (await this.call('GET', '/api/v1/settings/provider-keys', providerKeyListSchema)).provider_keys;
  }

  async revokeApiKey(keyId: string): Promise<ApiKeyView[]> {
    return (await this.call('POST', `/api/v1/api-keys/${encodeURIComponent(keyId)}/revoke`, apiKeyListSchema, {})).api_keys;
  }

  /** Admins: an account's quota (or, with `apiKeyId`, one of its keys'), with what the account and its keys used. */
  quota(accountId: string): Promise<AccountQuotaView> {
    return this.call('GET', quotaPath(accountId), accountQuotaViewSchema);
  }

  /** Admins: sets (replaces) the quota of an account, or of one of its keys; limits left out are unlimited. */
  setQuota(accountId: string, limits: QuotaLimitsRequest, options: { readonly apiKeyId?: string } = {}): Promise<AccountQuotaView> {
    return this.call('PUT', quotaPath(accountId, options.apiKeyId), accountQuotaViewSchema, limits);
  }

  /** Admins: removes the quota of an account or of one of its keys (unlimited again). */
  clearQuota(accountId: string, options: { readonly apiKeyId?: string } = {}): Promise<AccountQuotaView> {
    return this.call('DELETE', quotaPath(accountId, options.apiKeyId), accountQuotaViewSchema.passthrough());
  }

  private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
    return schema.parse(await (await this.send(method, path, body)).json());
  }

  /** The response to a request that succeeded; an error answer is thrown as the `ForgeApiError` it describes. */
  private async send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Response> {
    const response = await this.fetch(`${this.options.baseUrl}${path}`, {
      method,
      headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw await apiErrorOf(response);
    return response;
  }

  startRun(request: StartRunRequest): Promise<StartedRun> {
    return this.call('POST', '/api/v1/runs', startedRunSchema, request);
  }

  listRuns(options: { status?: ApiRun['status']; limit?: number; cursor?: string } = {}): Promise<RunList> {
    const query = new URLSearchParams();
    if (options.status !== undefined) query.set('status', options.status);
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    if (options.cursor !== undefined) query.set('cursor', options.cursor);
    const text = query.toString();
    return this.call('GET', `/api/v1/runs${text === '' ? '' : `?${text}`}`, runListSchema);
  }

  getRun(runId: string): Promise<ApiRun> {
    return this.call('GET', `/api/v1/runs/${encodeURIComponent(runId)}`, runSchema);
  }

  cancelRun(runId: string, reason?: string): Promise<ApiRun> {
    return this.call('POST', `/api/v1/runs/${encodeURIComponent(runId)}/cancel`, runSchema, reason === undefined ? {} : { reason });
  }

  resumeRun(runId: string): Promise<StartedRun> {
    return this.call('POST', `/api/v1/runs/${encodeURIComponent(runId)}/resume`, startedRunSchema, {});
  }

  async listConversations(): Promise<ApiConversation[]> {
    return (await this.call('GET', '/api/v1/conversations', conversationListSchema)).conversations;
  }

  createConversation(title?: string): Promise<ApiConversation> {
    return this.call('POST', '/api/v1/conversations', conversationSchema, title === undefined ? {} : { title });
  }

  getConversation(conversationId: string): Promise<ConversationDetail> {
    return this.call('GET', `/api/v1/conversations/${encodeURIComponent(conversationId)}`, conversationDetailSchema);
  }

  /** Sends a message; the run that answers it streams from `events_url` (see `readEvents`). */
  sendMessage(conversationId: string, content: string, options: { model?: string; tools?: string[]; agent?: string; params?: Record<string, string | number | boolean> } = {}): Promise<StartedRun> {
    return this.call('POST', `/api/v1/conversations/${encodeURIComponent(conversationId)}/messages`, startedRunSchema, { content, ...options });
  }

  async listApprovals(): Promise<ApiApproval[]> {
    return (await this.call('GET', '/api/v1/approvals', approvalListSchema)).approvals;
  }

  answerApproval(runId: string, callId: string, decision: 'approve' | 'deny', options: { reason?: string; digest?: string; always?: 'run' } = {}): Promise<ApprovalAnswer> {
    return this.call('POST', `/api/v1/approvals/${encodeURIComponent(runId)}/${encodeURIComponent(callId)}/${decision}`, approvalAnswerSchema, options);
  }

  /** The standing "approve always" grants of the caller's runs. */
  async listApprovalGrants(): Promise<z.infer<typeof approvalGrantListSchema>['grants']> {
    return (await this.call('GET', '/api/v1/approvals/grants', approvalGrantListSchema)).grants;
  }

  async revokeApprovalGrant(grantId: string): Promise<z.infer<typeof approvalGrantSchema>['grant']> {
    return (await this.call('POST', `/api/v1/approvals/grants/${encodeURIComponent(grantId)}/revoke`, approvalGrantSchema, {})).grant;
  }

  /** A scope's policy in force (default the installation's). */
  getPolicy(scope = 'installation'): Promise<z.infer<typeof policyShowSchema>> {
    return this.call('GET', `/api/v1/policy?scope=${encodeURIComponent(scope)}`, policyShowSchema);
  }

  /** What would happen to a call, and why, without making it. */
  testPolicy(request: { tool: string; input?: unknown; scopes?: string[] }): Promise<z.infer<typeof policyTestSchema>> {
    return this.call('POST', '/api/v1/policy/test', policyTestSchema, request);
  }

  /** Adds a rule to a scope, or replaces the one with the same tool and conditions (admin). */
  setPolicyRule(rule: unknown, options: { scope?: string; message?: string } = {}): Promise<z.infer<typeof policyChangeSchema>> {
    return this.call('POST', '/api/v1/policy/rules', policyChangeSchema, { rule, ...options });
  }

  async listAgents(): Promise<z.infer<typeof agentListSchema>['agents']> {
    return (await this.call('GET', '/api/v1/agents', agentListSchema)).agents;
  }

  /** `slug` (its active version) or `slug@version`. */
  getAgent(agent: string): Promise<z.infer<typeof agentDetailSchema>> {
    return this.call('GET', `/api/v1/agents/${encodeURIComponent(agent)}`, agentDetailSchema);
  }

  /** Creates an agent from its definition (as JSON, or `{yaml}`): version 1, active (admin). */
  createAgent(definition: AgentDefinitionInput | AgentYamlRequest): Promise<z.infer<typeof agentDetailSchema>> {
    return this.call('POST', '/api/v1/agents', agentDetailSchema, definition);
  }

  /** Saves the whole changed definition as the agent's next version, which becomes the active one (admin). */
  editAgent(slug: string, request: { definition: AgentDefinitionInput; message?: string } | AgentYamlRequest): Promise<z.infer<typeof agentEditedSchema>> {
    return this.call('POST', `/api/v1/agents/${encodeURIComponent(slug)}/versions`, agentEditedSchema, request);
  }

  /** Makes `version` the active one (admin). */
  rollbackAgent(slug: string, version: number): Promise<z.infer<typeof agentDetailSchema>> {
    return this.call('POST', `/api/v1/agents/${encodeURIComponent(slug)}/rollback`, agentDetailSchema, { version });
  }

  /** Removes the agent and its versions (admin). */
  async removeAgent(slug: string): Promise<string> {
    return (await this.call('POST', `/api/v1/agents/${encodeURIComponent(slug)}/remove`, agentRemovedSchema, {})).removed;
  }

  agentVersions(slug: string): Promise<z.infer<typeof agentVersionsSchema>> {
    return this.call('GET', `/api/v1/agents/${encodeURIComponent(slug)}/versions`, agentVersionsSchema);
  }

  diffAgent(slug: string, from: number, to: number): Promise<z.infer<typeof agentDiffSchema>> {
    return this.call('GET', `/api/v1/agents/${encodeURIComponent(slug)}/diff?from=${from}&to=${to}`, agentDiffSchema);
  }

  /** The definition as YAML, as `forge agent import` and `createAgent({yaml})` read it. */
  async exportAgent(agent: string): Promise<string> {
    return (await this.send('GET', `/api/v1/agents/${encodeURIComponent(agent)}/export`)).text();
  }

  /** Runs an agent (`slug` or `slug@version`); its events stream from `events_url` (see `readEvents`). */
  runAgent(agent: string, request: AgentRunRequest): Promise<StartedRun> {
    return this.call('POST', `/api/v1/agents/${encodeURIComponent(agent)}/runs`, startedRunSchema, request);
  }

  /**
   * Reads a run's events (Server-Sent Events) after `afterSeq` (-1: from the start), calling `onEvent`
   * for each, until the stream ends, the server shuts down, or `signal` aborts. Each event is validated.
   */
  async readEvents(runId: string, options: { afterSeq?: number; signal?: AbortSignal; onEvent?: (event: ForgeEvent) => void } = {}): Promise<RunEventRead> {
    const afterSeq = options.afterSeq ?? -1;
    const response = await this.fetch(`${this.options.baseUrl}/api/v1/runs/${encodeURIComponent(runId)}/events`, {
      headers: this.headers(afterSeq < 0 ? {} : { 'last-event-id': String(afterSeq) }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (!response.ok || response.body === null) throw await apiErrorOf(response);
    const events: ForgeEvent[] = [];
    let lastSeq = afterSeq;
    let ended: RunEventRead['ended'] = 'end';
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let boundary: number;
        while ((boundary = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const fields = new Map<string, string>();
          for (const line of frame.split('\n')) {
            if (line.startsWith(':') || line === '') continue;
            const colon = line.indexOf(':');
            fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
          }
          if (fields.get('event') === 'server-shutdown') ended = 'shutdown';
          const data = fields.get('data');
          if (data === undefined || fields.get('id') === undefined) continue;
          const event = forgeEventSchema.parse(JSON.parse(data));
          lastSeq = event.seq;
          events.push(event);
          options.onEvent?.(event);
        }
      }
    } catch (error) {
      if (options.signal?.aborted !== true) throw error;
      ended = 'aborted';
    }
    return { events, ended, lastSeq };
  }
}

/** The error an answer that failed describes (`{"error": {name, message, hint}}`), or an `UnexpectedResponse` when it has no such body. */
async function apiErrorOf(response: Response): Promise<ForgeApiError> {
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) return new ForgeApiError(response.status, 'UnexpectedResponse', `HTTP ${response.status} without an error body`, undefined);
  return new ForgeApiError(response.status, parsed.data.error.name, parsed.data.error.message, parsed.data.error.hint);
}

function quotaPath(accountId: string, apiKeyId?: string): string {
  return `/api/v1/accounts/${encodeURIComponent(accountId)}${apiKeyId === undefined ? '' : `/api-keys/${encodeURIComponent(apiKeyId)}`}/quota`;
}
