import type { Policy, PolicyRequest, PolicyStore, PolicyVerdict, PolicyVersion } from '../core/index.js';
import { evaluatePolicy, type PolicyEvaluation, type PolicyLayer } from './evaluate-policy.js';
import { POLICY_DOCUMENT_VERSION, policyDocumentSchema, type PolicyDocument } from './policy-document.js';
import { INSTALLATION_SCOPE, runScope } from './policy-scope.js';

export interface PolicyEngineOptions {
  readonly store: PolicyStore;
  /** Tools the configuration sends for approval (FORGE_REQUIRE_APPROVAL): the broadest layer, as explicit rules. */
  readonly requireApproval?: readonly string[];
  /** Where relative paths in calls are taken from, for `outside` conditions. */
  readonly workspace: string;
  /** How long a document read from the store is used before it is read again (other processes may save); default 1 s. */
  readonly refreshMs?: number;
  readonly now?: () => number;
}

interface CachedScope {
  readonly layer: PolicyLayer | undefined;
  /** A stored version that does not validate: every call under it is blocked until it is fixed. */
  readonly broken: string | undefined;
  readonly readAt: number;
}

const maxCachedScopes = 2000;

/** Stored text that no longer validates (edited by hand, or from a newer Forge): never guessed at. */
function layerOf(version: PolicyVersion): { layer?: PolicyLayer; broken?: string } {
  const parsed = policyDocumentSchema.safeParse(version.document);
  if (parsed.success) return { layer: { scope: version.scope, version: version.version, document: parsed.data } };
  const issue = parsed.error.issues[0];
  return { broken: `the policy of ${version.scope} (v${version.version}) does not validate (${issue?.path.join('.') || 'document'}: ${issue?.message ?? 'invalid'})` };
}

/**
 * The policy engine: every dispatched call is decided here from the layers that apply to it (the
 * configuration's, the installation's stored policy, the request's narrower scopes, and the run's own),
 * see `evaluatePolicy`. Documents are read from the store and kept for `refreshMs`, so a policy saved
 * by another process applies within that time and one saved through this engine's service at once.
 * A stored document that does not validate blocks every call it would govern (fails closed).
 */
export class PolicyEngine implements Policy {
  private readonly cache = new Map<string, CachedScope>();
  private readonly configurationLayer: PolicyLayer | undefined;

  constructor(private readonly options: PolicyEngineOptions) {
    const tools = options.requireApproval ?? [];
    this.configurationLayer =
      tools.length === 0
        ? undefined
        : {
            scope: 'configuration',
            version: null,
            document: {
              version: POLICY_DOCUMENT_VERSION,
              defaults: {},
              rules: tools.map((tool) => ({ tool, decision: 'require_approval' as const, reason: `${tool} needs approval (FORGE_REQUIRE_APPROVAL)` })),
            },
          };
  }

  async decide(request: PolicyRequest): Promise<PolicyVerdict> {
    return (await this.evaluate(request)).verdict;
  }

  /** The verdict with its steps, and the layers it was decided from. */
  async evaluate(request: Pick<PolicyRequest, 'runId' | 'tool' | 'risk' | 'input' | 'scopes' | 'workspace'>): Promise<PolicyEvaluation & { readonly layers: readonly PolicyLayer[] }> {
    const scopes = [INSTALLATION_SCOPE, ...(request.scopes ?? []), ...(request.runId === '' ? [] : [runScope(request.runId)])];
    const cached = await this.scopes(scopes);
    const broken = cached.find((scope) => scope.broken !== undefined);
    const layers = [...(this.configurationLayer === undefined ? [] : [this.configurationLayer]), ...cached.flatMap((scope) => (scope.layer === undefined ? [] : [scope.layer]))];
    if (broken?.broken !== undefined) {
      const reason = `${broken.broken}; calls it governs are blocked until it is fixed`;
      return { verdict: { decision: 'block', reason, rule: 'invalid stored policy' }, trace: [reason], layers };
    }
    return { ...evaluatePolicy(layers, request, request.workspace ?? this.options.workspace), layers };
  }

  /** The tools the configuration sends for approval (FORGE_REQUIRE_APPROVAL). */
  configurationRules(): readonly string[] {
    return this.options.requireApproval ?? [];
  }

  /** Forgets what was read of these scopes (all when none are named), so the next call reads them again. */
  invalidate(scopes?: readonly string[]): void {
    if (scopes === undefined) this.cache.clear();
    else for (const scope of scopes) this.cache.delete(scope);
  }

  /** The document in force for a scope, as the engine sees it (undefined when it has none). */
  async documentOf(scope: string): Promise<PolicyDocument | undefined> {
    const [cached] = await this.scopes([scope]);
    return cached?.layer?.document;
  }

  private async scopes(scopes: readonly string[]): Promise<CachedScope[]> {
    const now = (this.options.now ?? Date.now)();
    const refreshMs = this.options.refreshMs ?? 1000;
    const stale = scopes.filter((scope) => {
      const entry = this.cache.get(scope);
      return entry === undefined || now - entry.readAt >= refreshMs;
    });
    if (stale.length > 0) {
      const versions = await this.options.store.latest(stale);
      for (const scope of stale) {
        const version = versions.find((candidate) => candidate.scope === scope);
        const read = version === undefined ? {} : layerOf(version);
        this.cache.delete(scope);
        this.cache.set(scope, { layer: read.layer, broken: read.broken, readAt: now });
      }
      while (this.cache.size > maxCachedScopes) this.cache.delete(this.cache.keys().next().value!);
    }
    return scopes.map((scope) => this.cache.get(scope)!);
  }
}
