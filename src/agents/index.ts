export {
  AGENT_CONTEXTS,
  AGENT_DEFINITION_VERSION,
  OUTPUT_TYPES,
  PARAMETER_TYPES,
  TOOL_ACCESS,
  agentDefinitionSchema,
  agentOutputSchema,
  agentParameterSchema,
  parseAgentDefinition,
  type AgentContext,
  type AgentDefinition,
  type AgentDefinitionInput,
  type AgentOutput,
  type AgentParameter,
  type OutputType,
  type ParameterType,
  type ToolAccess,
} from './agent-definition.js';
export { AgentDefinitionError, AgentParameterError, AgentSecretValueError, AgentTemplateError, type AgentDefinitionIssue, type AgentTemplatePart } from './agent-errors.js';
export { diffAgentDefinitions, type AgentDefinitionChange } from './agent-diff.js';
export { describeExpectedJson, outputsJsonSchema } from './agent-outputs.js';
export { resolveAgentParameters } from './agent-parameters.js';
export { DEFAULT_POSTAMBLES, DEFAULT_PREAMBLES, renderAgentPrompt, type AgentPromptOptions } from './agent-prompt.js';
export { MAX_RENDERED_LENGTH, MAX_TEMPLATE_LENGTH, MAX_TEMPLATE_NESTING, RENDER_MEMORY_LIMIT, RENDER_TIME_LIMIT_MS } from './agent-template.js';
export { agentOffersTool, agentPolicyRules, agentToolAccess } from './agent-tool-access.js';
export { MAX_AGENT_FILE_BYTES, MAX_YAML_ALIASES, exportAgentYaml, importAgentYaml } from './agent-yaml.js';
export { MAX_YAML_DEPTH, MAX_YAML_KEYS_PER_MAPPING, MAX_YAML_NODES } from './yaml-shape-limits.js';
export type { ParameterValue, PromptAgent, PromptEnvironment, PromptSkill, PromptTool } from './prompt-variables.js';
export { findSecretLikeValues, redactSecretLikeValues, type SecretLikeValue } from './secret-like-values.js';
export { parseAgentReference, type AgentReference } from './agent-reference.js';
export { AgentService, type AgentAtVersion, type AgentAuthor, type AgentServiceParts } from './agent-service.js';
export { parameterValuesFromText } from './parameter-text.js';
export { agentChangeSchema, agentChangeView, agentDetailSchema, agentDetailView, agentDiffSchema, agentListSchema, agentSummarySchema, agentSummaryView, agentVersionSchema, agentVersionView, agentVersionsSchema, agentVersionsView } from './agent-views.js';
export { extractAgentParameters, parameterProblems, parameterQuestion, type AgentParameterExtraction, type AgentParameterExtractionOptions, type ParameterSource, type RejectedParameterValue } from './agent-input-extraction.js';
export { AgentOutputError } from './agent-output-error.js';
export { MAX_OUTPUT_ERRORS, outputRetryMessage, validateAgentOutput, type AgentOutputValidation } from './agent-output-validation.js';
export { agentAnswerCheck } from './agent-answer-check.js';
export { STARTER_AGENTS } from './starter-agents.js';
