export { describeCondition, testCondition, type ConditionResult } from './argument-conditions.js';
export { evaluatePolicy, type PolicyCall, type PolicyEvaluation, type PolicyLayer } from './evaluate-policy.js';
export { PolicyConflictError, PolicyInvalidError } from './policy-errors.js';
export {
  BUILT_IN_DEFAULTS,
  POLICY_DOCUMENT_VERSION,
  emptyPolicyDocument,
  policyConditionSchema,
  policyDocumentSchema,
  policyRuleSchema,
  toolPatternSchema,
  type PolicyCondition,
  type PolicyDocument,
  type PolicyRule,
} from './policy-document.js';
export { PolicyEngine, type PolicyEngineOptions } from './policy-engine.js';
export { INSTALLATION_SCOPE, agentRunScopes, agentScope, agentVersionScope, policyScopeSchema, runScope, tightensOnly, type PolicyScope } from './policy-scope.js';
export { PolicyService, type PolicyAuthor, type PolicyChange, type PolicyServiceParts, type PolicyShown, type PolicyTest } from './policy-service.js';
export { toolPatternMatches } from './tool-pattern.js';
export { builtInPolicy } from './built-in-policy.js';
export { BUILT_IN_RULES } from './built-in-rules.js';
export { policyChangeSchema, policyChangeView, policyShowSchema, policyShowView, policyTestSchema, policyTestView, policyVersionSchema, policyVersionView, policyVersionsSchema } from './policy-views.js';
