import type { z } from 'zod';
import { accountsQuotaClearOutputSchema, accountsQuotaOutputSchema, apiKeysCreateOutputSchema, apiKeysListOutputSchema, apiKeysRevokeOutputSchema, secretKeyRotateOutputSchema, secretKeyStatusOutputSchema, usersAddOutputSchema, usersListOutputSchema, usersRemoveOutputSchema } from './account-outputs.js';
import { demoOutputSchema } from './demo-outputs.js';
import { agentCreateOutputSchema, agentDiffOutputSchema, agentEditOutputSchema, agentImportOutputSchema, agentListOutputSchema, agentRemoveOutputSchema, agentShowOutputSchema, agentVersionsOutputSchema } from './agent-outputs.js';
import { configGetOutputSchema, configListOutputSchema, configSetOutputSchema, configUnsetOutputSchema, doctorOutputSchema, homeOutputSchema, initOutputSchema, runsDeleteOutputSchema, serveOutputSchema, skillRemoveOutputSchema, skillRenameOutputSchema } from './home-outputs.js';
import { mcpListOutputSchema, mcpRemoveOutputSchema, mcpServeOutputSchema, mcpServerOutputSchema, mcpToolsOutputSchema } from './mcp-outputs.js';
import { policyChangeSchema, policyShowSchema, policyTestSchema, policyVersionsSchema } from '../../policy/policy-views.js';
import { approvalAnswerOutputSchema, approvalsGrantsOutputSchema, approvalsListOutputSchema, approvalsRevokeOutputSchema, runOutputSchema, runsCancelOutputSchema, runsListOutputSchema, runsShowOutputSchema, skillReplayResultSchema } from './run-outputs.js';
import { savedSkillOutputSchema, skillListOutputSchema, skillShowOutputSchema, skillTestOutputSchema, skillVersionsOutputSchema } from './skill-outputs.js';
import { replayOutputSchema, statsOutputSchema } from './stats-outputs.js';
import { storeCopyOutputSchema } from './store-outputs.js';
import { toolsAddOutputSchema, toolsCallOutputSchema, toolsImportOutputSchema, toolsListOutputSchema, toolsRemoveOutputSchema, toolsShowOutputSchema, toolsTestOutputSchema } from './tools-outputs.js';

/**
 * What each command prints with `--json` when it succeeds, by its command path (the words after
 * `forge`). A failure prints `errorOutputSchema` instead, whatever the command. Adding a command that
 * takes `--json` means adding its line here: the contract test fails for a command without one, and
 * `npm run docs:json` writes each schema to `docs/json/`.
 */
export const commandOutputs: Readonly<Record<string, z.ZodType>> = {
  run: runOutputSchema,
  'runs list': runsListOutputSchema,
  'runs show': runsShowOutputSchema,
  'runs cancel': runsCancelOutputSchema,
  'approvals list': approvalsListOutputSchema,
  'approvals approve': approvalAnswerOutputSchema,
  'approvals deny': approvalAnswerOutputSchema,
  'approvals grants': approvalsGrantsOutputSchema,
  'approvals revoke': approvalsRevokeOutputSchema,
  'policy show': policyShowSchema,
  'policy set': policyChangeSchema,
  'policy unset': policyChangeSchema,
  'policy default': policyChangeSchema,
  'policy rollback': policyChangeSchema,
  'policy test': policyTestSchema,
  'policy versions': policyVersionsSchema,
  'agent create': agentCreateOutputSchema,
  'agent edit': agentEditOutputSchema,
  'agent list': agentListOutputSchema,
  'agent show': agentShowOutputSchema,
  'agent versions': agentVersionsOutputSchema,
  'agent diff': agentDiffOutputSchema,
  'agent rollback': agentShowOutputSchema,
  'agent import': agentImportOutputSchema,
  'agent remove': agentRemoveOutputSchema,
  replay: replayOutputSchema,
  stats: statsOutputSchema,
  demo: demoOutputSchema,
  'tools list': toolsListOutputSchema,
  'tools show': toolsShowOutputSchema,
  'tools add': toolsAddOutputSchema,
  'tools test': toolsTestOutputSchema,
  'tools remove': toolsRemoveOutputSchema,
  'tools import': toolsImportOutputSchema,
  'tools call': toolsCallOutputSchema,
  'mcp add': mcpServerOutputSchema,
  'mcp list': mcpListOutputSchema,
  'mcp refresh': mcpServerOutputSchema,
  'mcp tools': mcpToolsOutputSchema,
  'mcp remove': mcpRemoveOutputSchema,
  'mcp serve': mcpServeOutputSchema,
  'skill save': savedSkillOutputSchema,
  'skill list': skillListOutputSchema,
  'skill show': skillShowOutputSchema,
  'skill run': skillReplayResultSchema,
  'skill test': skillTestOutputSchema,
  'skill edit': savedSkillOutputSchema,
  'skill versions': skillVersionsOutputSchema,
  'skill rollback': savedSkillOutputSchema,
  'skill import': savedSkillOutputSchema,
  'skill remove': skillRemoveOutputSchema,
  'skill rename': skillRenameOutputSchema,
  'runs delete': runsDeleteOutputSchema,
  serve: serveOutputSchema,
  'users add': usersAddOutputSchema,
  'users list': usersListOutputSchema,
  'users remove': usersRemoveOutputSchema,
  'api-keys create': apiKeysCreateOutputSchema,
  'api-keys list': apiKeysListOutputSchema,
  'api-keys revoke': apiKeysRevokeOutputSchema,
  'accounts quota set': accountsQuotaOutputSchema,
  'accounts quota show': accountsQuotaOutputSchema,
  'accounts quota clear': accountsQuotaClearOutputSchema,
  'secret-key status': secretKeyStatusOutputSchema,
  'secret-key rotate': secretKeyRotateOutputSchema,
  'store copy': storeCopyOutputSchema,
  home: homeOutputSchema,
  'config list': configListOutputSchema,
  'config get': configGetOutputSchema,
  'config set': configSetOutputSchema,
  'config unset': configUnsetOutputSchema,
  init: initOutputSchema,
  doctor: doctorOutputSchema,
};
