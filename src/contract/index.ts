/**
 * The contract of Forge's HTTP API (`/api/v1`): the zod schema of every request and response body, which
 * the server's route table validates with and builds its OpenAPI document from, and which the consumers
 * (the web UI, the typed client `forge-agent/client`) are typed from; and the one fold of a run's event
 * stream into a run view, which the terminal UI and the web UI draw from. It imports only `core/` and
 * the view schemas of the features whose records the API shows; never the server.
 */
export { approvalAnswerRequestSchema, approvalAnswerSchema, approvalGrantListSchema, approvalGrantSchema, approvalListSchema, approvalSchema, cancelRunRequestSchema, conversationDetailSchema, conversationListSchema, conversationSchema, createConversationRequestSchema, errorBodySchema, healthSchema, messageSchema, readySchema, runListQuerySchema, runListSchema, runSchema, sendMessageRequestSchema, startedRunSchema, startRunRequestSchema, type ApiApproval, type ApiConversation, type ApiError, type ApiRun, type ApprovalAnswer, type ConversationDetail, type RunList, type StartedRun, type StartRunRequest } from './api-schemas.js';
export { apiKeyCreateRequestSchema, apiKeyListSchema, apiKeySchema, createdApiKeySchema, loginRequestSchema, meSchema, refreshRequestSchema, sessionSchema, signedInSchema, signedOutSchema, signupRequestSchema, userListSchema, userSchema, type CreatedApiKeyBody, type MeBody, type SignedInBody } from './account-schemas.js';
export { agentDiffQuerySchema, agentEditedSchema, agentMessageSchema, agentRemovedSchema, agentRollbackRequestSchema, agentRunRequestSchema, agentYamlRequestSchema, type AgentRunRequest, type AgentYamlRequest } from './agent-schemas.js';
export { addMcpServerRequestSchema, addToolRequestSchema, mcpServerListSchema, mcpServerSchema, promotedToolSchema, promoteToolRequestSchema, toolboxEntrySchema, toolboxListSchema, toolDetailSchema } from './installation-schemas.js';
export { customerProductListSchema, customerProductSchema, customerPurchaseSchema, customerRunRequestSchema, customerUsageSchema, productFormSchema, sellerProductSchema, type CustomerProduct, type CustomerPurchase, type CustomerUsage, type SellerProduct } from './marketplace-schemas.js';
export { policyRemoveRuleRequestSchema, policyReplaceRequestSchema, policyRollbackRequestSchema, policyScopeQuerySchema, policySetDefaultRequestSchema, policySetRuleRequestSchema, policyTestRequestSchema } from './policy-schemas.js';
export { providerKeyListSchema, providerKeyRequestSchema, providerKeySchema } from './provider-key-schemas.js';
export { clearedQuotaSchema } from './quota-schemas.js';
export { importSkillRequestSchema, runSkillRequestSchema, savedSkillSchema, saveSkillRequestSchema, skillDetailSchema, skillListSchema, skillReplaySchema, skillSummarySchema, skillTestSchema, skillVersionListSchema } from './skill-schemas.js';
export { toolCallRequestSchema, toolCallSchema, toolListSchema, toolSchema } from './tool-schemas.js';
export { usageRowSchema, usageSchema, usageTotalsSchema } from './usage-schemas.js';
export {
  emptyRunView,
  foldRunView,
  runViewOf,
  type ModelCallInFlight,
  type RunTotals,
  type RunView,
  type TimelineItem,
  type ToolboxEntry,
  type ToolboxStatus,
  type ToolCallView,
} from './run-view.js';
export { agentDetailSchema, agentDiffSchema, agentListSchema, agentVersionsSchema } from '../agents/agent-views.js';
export { policyChangeSchema, policyShowSchema, policyTestSchema, policyVersionsSchema } from '../policy/policy-views.js';
export { accountQuotaViewSchema, quotaLimitsRequestSchema, type AccountQuotaView, type QuotaLimitsRequest } from '../accounts/quota-views.js';
export type { ApiKeyView } from '../accounts/account-views.js';
export type { AgentDefinitionInput } from '../agents/agent-definition.js';
