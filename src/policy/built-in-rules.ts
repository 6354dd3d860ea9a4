import type { PolicyRule } from './policy-document.js';

/** The methods that only read (RFC 9110's safe methods); `http_request` with any other may change remote state. */
const SAFE_HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Rules every installation starts with, under every scope. They are defaults, like the built-in risk
 * defaults: a rule for the same tool in any scope but a run's own overrides them (`forge policy set
 * http_request allow --when …`), while a scope's risk default alone does not, so relaxing one takes a
 * rule that names the tool.
 */
export const BUILT_IN_RULES: readonly PolicyRule[] = [
  {
    tool: 'http_request',
    decision: 'require_approval',
    when: [{ argument: 'method', not_in: SAFE_HTTP_METHODS }],
    reason: `http_request with a method that may change remote state needs an approval by default (only ${SAFE_HTTP_METHODS.slice(0, -1).join(', ')} or ${SAFE_HTTP_METHODS.at(-1)} run without one)`,
  },
];
