import type { z } from 'zod';
import type { ForgeEvent, LiveEvent } from '../../../src/core/events.js';
import type {
  agentDetailSchema,
  agentListSchema,
  apiKeyListSchema,
  approvalAnswerSchema,
  approvalGrantListSchema,
  approvalListSchema,
  conversationDetailSchema,
  conversationListSchema,
  conversationSchema,
  createdApiKeySchema,
  customerProductListSchema,
  customerProductSchema,
  customerPurchaseSchema,
  customerUsageSchema,
  mcpServerListSchema,
  policyShowSchema,
  policyTestSchema,
  providerKeyListSchema,
  runListSchema,
  runSchema,
  savedSkillSchema,
  sellerProductSchema,
  sessionSchema,
  signedInSchema,
  skillDetailSchema,
  skillListSchema,
  skillReplaySchema,
  skillTestSchema,
  skillVersionListSchema,
  startedRunSchema,
  toolboxListSchema,
  toolDetailSchema,
  toolListSchema,
  usageSchema,
  userListSchema,
} from '../../../src/contract/index.js';

/**
 * The API's bodies as the web UI reads them: types only, inferred from the API contract's zod schemas
 * (src/contract, which the server validates with too), so the bundle carries none of the server's code
 * and a renamed field fails the UI's type check.
 */
export type { ForgeEvent, LiveEvent };
export type Run = z.infer<typeof runSchema>;
export type RunList = z.infer<typeof runListSchema>;
export type StartedRun = z.infer<typeof startedRunSchema>;
export type Approval = z.infer<typeof approvalListSchema>['approvals'][number];
export type ApprovalAnswer = z.infer<typeof approvalAnswerSchema>;
export type ApprovalGrants = z.infer<typeof approvalGrantListSchema>;
export type Conversation = z.infer<typeof conversationSchema>;
export type ConversationList = z.infer<typeof conversationListSchema>;
export type ConversationDetail = z.infer<typeof conversationDetailSchema>;
export type Session = z.infer<typeof sessionSchema>;
export type SignedIn = z.infer<typeof signedInSchema>;
export type ApiKeyList = z.infer<typeof apiKeyListSchema>;
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
export type UserList = z.infer<typeof userListSchema>;
export type CustomerProduct = z.infer<typeof customerProductSchema>;
export type CustomerProductList = z.infer<typeof customerProductListSchema>;
export type CustomerPurchase = z.infer<typeof customerPurchaseSchema>;
export type CustomerUsage = z.infer<typeof customerUsageSchema>;
export type SellerProduct = z.infer<typeof sellerProductSchema>;
export type SavedSkill = z.infer<typeof savedSkillSchema>;
export type SkillList = z.infer<typeof skillListSchema>;
export type SkillSummary = SkillList['skills'][number];
export type SkillDetail = z.infer<typeof skillDetailSchema>;
export type SkillReplay = z.infer<typeof skillReplaySchema>;
export type SkillTest = z.infer<typeof skillTestSchema>;
export type SkillVersions = z.infer<typeof skillVersionListSchema>;
export type ToolList = z.infer<typeof toolListSchema>;
export type ToolboxList = z.infer<typeof toolboxListSchema>;
export type ToolboxEntry = ToolboxList['toolbox'][number];
export type McpServerList = z.infer<typeof mcpServerListSchema>;
export type McpServer = McpServerList['mcp_servers'][number];
export type ProviderKeyList = z.infer<typeof providerKeyListSchema>;
export type Usage = z.infer<typeof usageSchema>;
export type AgentList = z.infer<typeof agentListSchema>;
export type AgentDetail = z.infer<typeof agentDetailSchema>;
export type PolicyShow = z.infer<typeof policyShowSchema>;
export type PolicyTest = z.infer<typeof policyTestSchema>;
export type EventOf<K extends ForgeEvent['type']> = Extract<ForgeEvent, { type: K }>;
export type ToolDetail = z.infer<typeof toolDetailSchema>;
