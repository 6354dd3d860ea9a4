export { dispatchToolCall, inputDigest, recordedOutcome, type DispatchEnvironment, type DispatchOutcome, type DispatchRequest } from './dispatch.js';
export { CallGuards, DEFAULT_CALL_GUARD_SETTINGS, type CallGuardOptions, type CallGuardSettings, type Clock } from './call-guards/index.js';
export { ToolRegistry } from './registry.js';
export { ToolSet } from './tool-set.js';
export type { JsonSchema, ToolSpecification } from './tool-specification.js';
export { DEFAULT_OUTPUT_LIMIT, capToolOutput, type CappedText } from './result-cap.js';
export { aliasCandidates, normalizeToolName } from './tool-name-aliases.js';
export { defangBoundaryTags } from '../security/defang-boundary-tags.js';
export { UNTRUSTED_CONTENT_RULE, unwrapUntrustedContent, withoutBoundarySuffixes, wrapUntrusted } from '../security/untrusted-content.js';
