import { accountsSchema } from './accounts-schema.js';
import { agentsSchema } from './agents-schema.js';
import { eventTypesIndexSchema } from './event-types-index-schema.js';
import { initialSchema } from './initial-schema.js';
import { marketplaceSchema } from './marketplace-schema.js';
import { policiesSchema } from './policies-schema.js';
import { providerKeysSchema } from './provider-keys-schema.js';
import { quotasSchema } from './quotas-schema.js';
import { mcpServersSchema } from './mcp-servers-schema.js';
import { mcpAllowStdioSchema } from './mcp-allow-stdio-schema.js';
import { mcpTrustAnnotationsSchema } from './mcp-trust-annotations-schema.js';
import type { Migration } from './migration.js';
import { runCostPartsSchema } from './run-cost-parts-schema.js';
import { runOwnersSchema } from './run-owners-schema.js';
import { runStatesSchema } from './run-states-schema.js';
import { schedulesSchema } from './schedules-schema.js';
import { skillVersionsSchema } from './skill-versions-schema.js';
import { skillsSchema } from './skills-schema.js';
import type { SqlDialect } from './sql-dialect.js';
import { toolboxSchema } from './toolbox-schema.js';
import { toolboxUsesSchema } from './toolbox-uses-schema.js';
import { toolboxOwnersSchema } from './toolbox-owners-schema.js';
import { toolCallsSchema } from './tool-calls-schema.js';

/** Every migration of the schema, oldest first, spelled for `dialect`. Append new versions at the end. */
export function migrationsFor(dialect: SqlDialect): readonly Migration[] {
  return [initialSchema(dialect), skillsSchema(dialect), mcpServersSchema(dialect), toolboxSchema(dialect), mcpTrustAnnotationsSchema(dialect), skillVersionsSchema(dialect), runOwnersSchema(dialect), eventTypesIndexSchema(dialect), runStatesSchema(dialect), toolboxUsesSchema(dialect), mcpAllowStdioSchema(dialect), accountsSchema(dialect), marketplaceSchema(dialect), providerKeysSchema(dialect), policiesSchema(dialect), toolCallsSchema(dialect), agentsSchema(dialect), schedulesSchema(dialect), toolboxOwnersSchema(dialect), quotasSchema(dialect), runCostPartsSchema(dialect)];
}
