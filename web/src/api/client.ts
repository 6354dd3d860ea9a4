import type {
  AgentDetail,
  AgentList,
  ApiKeyList,
  ApprovalAnswer,
  Approval,
  Conversation,
  ConversationDetail,
  ConversationList,
  CreatedApiKey,
  CustomerProduct,
  CustomerProductList,
  CustomerPurchase,
  CustomerUsage,
  McpServer,
  McpServerList,
  PolicyShow,
  PolicyTest,
  ProviderKeyList,
  Run,
  RunList,
  SavedSkill,
  SellerProduct,
  Session,
  SignedIn,
  SkillDetail,
  SkillList,
  SkillReplay,
  SkillTest,
  SkillVersions,
  StartedRun,
  ToolboxList,
  ToolDetail,
  ToolList,
  Usage,
  UserList,
} from './types.js';

/** An answer in the API's error envelope (`{"error": {name, message, hint}}`), with its status. */
export class ApiError extends Error {
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

/** Told when a request needed a session and none could be had (signed out, or the refresh token expired). */
let onSessionLost: () => void = () => {};
export function whenSessionLost(listener: () => void): void {
  onSessionLost = listener;
}

function cookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => undefined)) as { error?: { name?: string; message?: string; hint?: string } } | undefined;
  const error = body?.error;
  return new ApiError(response.status, error?.name ?? 'UnexpectedResponse', error?.message ?? `HTTP ${response.status}`, error?.hint);
}

function send(method: 'GET' | 'POST', path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    // The session cookie authenticates this write; its CSRF token proves the page is ours.
    const csrf = cookie('forge_csrf');
    if (csrf !== undefined && csrf !== '') headers['x-csrf-token'] = csrf;
  }
  return fetch(`/api/v1${path}`, { method, headers, credentials: 'same-origin', ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}) });
}

let refreshing: Promise<boolean> | undefined;

/** Trades the refresh cookie for a new session, once however many requests ask at the same time. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= send('POST', '/auth/refresh', {})
    .then((response) => response.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response = await send(method, path, body);
  if (response.status === 401 && !path.startsWith('/auth/')) {
    if (await refreshSession()) response = await send(method, path, body);
    if (response.status === 401) onSessionLost();
  }
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as T;
}

const segment = encodeURIComponent;

/** The public API (`/api/v1`), typed by the server's schemas; the session rides in its HttpOnly cookies. */
export const api = {
  session: () => call<Session>('GET', '/auth/session'),
  login: (email: string, password: string) => call<SignedIn>('POST', '/auth/login', { email, password }),
  logout: () => call<{ signed_out: boolean }>('POST', '/auth/logout'),

  runs: (options: { status?: string; limit?: number; cursor?: string } = {}) => {
    const query = new URLSearchParams();
    if (options.status !== undefined && options.status !== '') query.set('status', options.status);
    query.set('limit', String(options.limit ?? 50));
    if (options.cursor !== undefined) query.set('cursor', options.cursor);
    return call<RunList>('GET', `/runs?${query}`);
  },
  run: (runId: string) => call<Run>('GET', `/runs/${segment(runId)}`),
  startRun: (request: { task: string; converge?: boolean; model?: string }) => call<StartedRun>('POST', '/runs', request),
  cancelRun: (runId: string) => call<Run>('POST', `/runs/${segment(runId)}/cancel`, {}),
  resumeRun: (runId: string) => call<StartedRun>('POST', `/runs/${segment(runId)}/resume`, {}),
  runLogUrl: (runId: string) => `/api/v1/runs/${segment(runId)}/log`,

  conversations: () => call<ConversationList>('GET', '/conversations'),
  createConversation: (title?: string) => call<Conversation>('POST', '/conversations', title === undefined ? {} : { title }),
  conversation: (id: string) => call<ConversationDetail>('GET', `/conversations/${segment(id)}`),
  sendMessage: (id: string, request: { content: string; agent?: string; model?: string }) => call<StartedRun>('POST', `/conversations/${segment(id)}/messages`, request),

  approvals: () => call<{ approvals: Approval[] }>('GET', '/approvals'),
  answerApproval: (runId: string, callId: string, decision: 'approve' | 'deny', request: { reason?: string; digest?: string }) =>
    call<ApprovalAnswer>('POST', `/approvals/${segment(runId)}/${segment(callId)}/${decision}`, request),

  skills: () => call<SkillList>('GET', '/skills'),
  skill: (name: string) => call<SkillDetail>('GET', `/skills/${segment(name)}`),
  skillVersions: (name: string) => call<SkillVersions>('GET', `/skills/${segment(name)}/versions`),
  saveSkill: (request: { run_id: string; name?: string; description?: string }) => call<SavedSkill>('POST', '/skills', request),
  replaySkill: (name: string, request: { inputs: Record<string, unknown>; mode?: 'auto' | 'deterministic' | 'guided'; dry_run?: boolean }) => call<SkillReplay>('POST', `/skills/${segment(name)}/run`, request),
  testSkill: (name: string) => call<SkillTest>('POST', `/skills/${segment(name)}/test`, {}),

  tools: () => call<ToolList>('GET', '/tools'),
  tool: (name: string) => call<ToolDetail>('GET', `/tools/${segment(name)}`),
  toolbox: () => call<ToolboxList>('GET', '/toolbox'),
  addTool: (request: { tool_source: string; test_source: string }) => call<{ name: string; status: string }>('POST', '/tools', request),

  mcpServers: () => call<McpServerList>('GET', '/mcp-servers'),
  addMcpServer: (request: { name: string; url: string; transport: 'streamable-http' | 'sse' }) => call<McpServer>('POST', '/mcp-servers', request),
  refreshMcpServer: (name: string) => call<McpServer>('POST', `/mcp-servers/${segment(name)}/refresh`, {}),
  removeMcpServer: (name: string) => call<McpServerList>('POST', `/mcp-servers/${segment(name)}/remove`, {}),

  products: () => call<CustomerProductList>('GET', '/marketplace/products'),
  product: (name: string) => call<CustomerProduct>('GET', `/marketplace/products/${segment(name)}`),
  publishProduct: (request: { skill: string; name: string; description: string; price_minor: number; currency: string; output_fields?: string[]; published?: boolean }) =>
    call<SellerProduct>('POST', '/marketplace/products', request),
  unpublishProduct: (name: string) => call<SellerProduct>('POST', `/marketplace/products/${segment(name)}/unpublish`, {}),
  buyProduct: (name: string, inputs: Record<string, unknown>) => call<CustomerPurchase>('POST', `/marketplace/products/${segment(name)}/runs`, { inputs }),
  purchase: (id: string) => call<CustomerPurchase>('GET', `/marketplace/purchases/${segment(id)}`),
  purchases: () => call<CustomerUsage>('GET', '/marketplace/usage'),

  providerKeys: () => call<ProviderKeyList>('GET', '/settings/provider-keys'),
  setProviderKey: (provider: string, key: string) => call<ProviderKeyList['provider_keys'][number]>('POST', '/settings/provider-keys', { provider, key }),
  removeProviderKey: (provider: string) => call<ProviderKeyList>('POST', `/settings/provider-keys/${segment(provider)}/remove`, {}),
  apiKeys: () => call<ApiKeyList>('GET', '/api-keys'),
  createApiKey: (request: { name: string; scopes: string[]; expires_in_days?: number }) => call<CreatedApiKey>('POST', '/api-keys', request),
  revokeApiKey: (keyId: string) => call<ApiKeyList>('POST', `/api-keys/${segment(keyId)}/revoke`, {}),
  users: () => call<UserList>('GET', '/users'),

  agents: () => call<AgentList>('GET', '/agents'),
  agent: (slug: string) => call<AgentDetail>('GET', `/agents/${segment(slug)}`),
  policy: () => call<PolicyShow>('GET', '/policy'),
  testPolicy: (request: { tool: string; input?: unknown }) => call<PolicyTest>('POST', '/policy/test', request),
  usage: () => call<Usage>('GET', '/usage'),
};
