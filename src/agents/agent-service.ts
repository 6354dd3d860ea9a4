import { NotFoundError, type AgentPin, type AgentRecord, type AgentStore, type AgentVersionRecord } from '../core/index.js';
import { POLICY_DOCUMENT_VERSION, agentVersionScope, type PolicyService } from '../policy/index.js';
import { parseAgentDefinition, type AgentDefinition } from './agent-definition.js';
import { diffAgentDefinitions, type AgentDefinitionChange } from './agent-diff.js';
import { AgentDefinitionError, AgentSecretValueError } from './agent-errors.js';
import { formatAgentPath } from './agent-path.js';
import { parseAgentReference } from './agent-reference.js';
import { agentPolicyRules } from './agent-tool-access.js';
import { exportAgentYaml, importAgentYaml } from './agent-yaml.js';
import { findSecretLikeValues, redactSecretLikeValues } from './secret-like-values.js';
import { STARTER_AGENTS } from './starter-agents.js';

export interface AgentServiceParts {
  readonly store: AgentStore;
  /** The agent's tool access becomes its policy scope (`agent:<slug>`) whenever a version becomes active. */
  readonly policies: PolicyService;
}

/** Who saves, and why. */
export interface AgentAuthor {
  readonly author: string;
  readonly userId: string | null;
  readonly message?: string;
}

/** An agent with one of its versions, the definition read back through the schema. */
export interface AgentAtVersion {
  readonly agent: AgentRecord;
  readonly version: AgentVersionRecord;
  readonly definition: AgentDefinition;
}

/** Credentials never go into a definition, whichever way it comes in. */
function refuseSecrets(value: unknown): void {
  const found = findSecretLikeValues(value);
  if (found.length === 0) return;
  throw new AgentSecretValueError(found.map((secret) => {
    const segments = redactSecretLikeValues(secret.segments);
    return { path: formatAgentPath(segments), segments, message: `looks like ${secret.kind}` };
  }));
}

/**
 * Agent definitions for the CLI and the API: every save validates with the one schema, refuses
 * credential-looking values, and makes a new immutable version (full snapshot, changed fields, message,
 * author) that becomes the active one; a rollback saves an earlier version's definition as the newest. Whenever the active version
 * changes, its tool access is saved as the agent's policy scope, where it never relaxes the
 * installation's blocks.
 */
export class AgentService {
  constructor(private readonly parts: AgentServiceParts) {}

  /** Creates an agent from a definition (plain data: parsed YAML, JSON, an API body). */
  async create(input: unknown, by: AgentAuthor): Promise<AgentAtVersion> {
    refuseSecrets(input);
    const definition = parseAgentDefinition(input);
    const saved = await this.parts.store.create(definition.slug, { name: definition.name, definition, changedFields: ['(created)'], message: by.message ?? 'created', author: by.author }, { userId: by.userId });
    await this.savePolicy(definition, 1, by);
    return { ...saved, definition };
  }

  /** Saves an edited definition as the next version; a definition equal to the latest is refused (nothing changed). */
  async edit(slug: string, input: unknown, by: AgentAuthor): Promise<AgentAtVersion & { readonly changes: readonly AgentDefinitionChange[] }> {
    refuseSecrets(input);
    const definition = parseAgentDefinition(input);
    if (definition.slug !== slug) throw new AgentDefinitionError([{ path: 'slug', segments: ['slug'], message: `is ${definition.slug}, but this is the agent ${slug}; a slug cannot change` }], 'Keep the slug, or create a new agent with `forge agent create`.');
    const agent = await this.require(slug);
    const latest = await this.definitionAt(slug, agent.latestVersion);
    const changes = diffAgentDefinitions(latest.definition, definition);
    if (changes.length === 0) throw new AgentDefinitionError([{ path: '(definition)', message: `is the same as version ${agent.latestVersion}; nothing to save` }], 'Change a field, or roll back with `forge agent rollback`.');
    const saved = await this.parts.store.addVersion(slug, { name: definition.name, definition, changedFields: changes.map((change) => change.path), message: by.message ?? `changed ${changes.map((change) => change.path).join(', ')}`.slice(0, 500), author: by.author }, agent.latestVersion);
    if (saved === undefined) throw new AgentDefinitionError([{ path: '(definition)', message: `was changed by someone else while this edit was made (it is past version ${agent.latestVersion})` }], 'Show the agent again and make the change on its latest version.');
    await this.savePolicy(definition, saved.version.version, by);
    return { ...saved, definition, changes };
  }

  /** Installs the starter agents (`forge init`) that are not there yet; an agent of the same slug is left as it is. Returns the slugs installed. */
  async installStarters(by: AgentAuthor): Promise<string[]> {
    const installed: string[] = [];
    for (const starter of STARTER_AGENTS) {
      if ((await this.parts.store.get(starter.slug)) !== undefined) continue;
      await this.create(starter, { ...by, message: by.message ?? 'starter agent (forge init)' });
      installed.push(starter.slug);
    }
    return installed;
  }

  /** Imports a YAML file: a new agent, or the next version of the agent its slug names. */
  async importYaml(text: string, by: AgentAuthor): Promise<AgentAtVersion & { readonly created: boolean }> {
    const definition = importAgentYaml(text);
    const existing = await this.parts.store.get(definition.slug);
    if (existing === undefined) return { ...(await this.create(definition, by)), created: true };
    return { ...(await this.edit(definition.slug, definition, { ...by, message: by.message ?? 'imported' })), created: false };
  }

  /** The definition as YAML for version control: the same schema, credential-looking values redacted. */
  async exportYaml(reference: string): Promise<string> {
    return exportAgentYaml((await this.show(reference)).definition);
  }

  list(): Promise<AgentRecord[]> {
    return this.parts.store.list();
  }

  /** `slug` (its active version) or `slug@version`. */
  async show(reference: string): Promise<AgentAtVersion> {
    const parsed = parseAgentReference(reference);
    const agent = await this.require(parsed.slug);
    const { version, definition } = await this.definitionAt(parsed.slug, parsed.version ?? agent.activeVersion);
    return { agent, version, definition };
  }

  /** What a run of `reference` runs: the definition and the version it is pinned to. */
  async forRun(reference: string): Promise<{ readonly pin: AgentPin; readonly definition: AgentDefinition }> {
    const shown = await this.show(reference);
    return { pin: { slug: shown.agent.slug, version: shown.version.version }, definition: shown.definition };
  }

  async versions(slug: string): Promise<AgentVersionRecord[]> {
    await this.require(slug);
    return this.parts.store.versions(slug);
  }

  /** The agent (its active and latest version) with its versions, newest first. */
  async history(slug: string): Promise<{ readonly agent: AgentRecord; readonly versions: AgentVersionRecord[] }> {
    const agent = await this.require(slug);
    return { agent, versions: await this.parts.store.versions(slug) };
  }

  /** The fields that differ between two versions. */
  async diff(slug: string, from: number, to: number): Promise<AgentDefinitionChange[]> {
    const [before, after] = [await this.definitionAt(slug, from), await this.definitionAt(slug, to)];
    return diffAgentDefinitions(before.definition, after.definition);
  }

  /**
   * Rolls back to an earlier version by saving its definition again as the newest version (message
   * "rollback to vN"), as skill and policy rollbacks do: history only grows, and runs started from now on
   * use the new version. Rolling back to the definition already in force saves nothing.
   */
  async rollback(slug: string, version: number, by: AgentAuthor): Promise<AgentAtVersion> {
    const agent = await this.require(slug);
    const target = await this.definitionAt(slug, version);
    const latest = await this.definitionAt(slug, agent.latestVersion);
    const changes = diffAgentDefinitions(latest.definition, target.definition);
    if (changes.length === 0) {
      const active = agent.activeVersion === agent.latestVersion ? agent : await this.parts.store.setActive(slug, agent.latestVersion);
      return { agent: active ?? agent, version: latest.version, definition: latest.definition };
    }
    const saved = await this.parts.store.addVersion(slug, { name: target.definition.name, definition: target.definition, changedFields: changes.map((change) => change.path), message: by.message ?? `rollback to v${version}`, author: by.author }, agent.latestVersion);
    if (saved === undefined) throw new AgentDefinitionError([{ path: '(definition)', message: `was changed by someone else during the rollback (it is past version ${agent.latestVersion})` }], 'Show the agent\'s versions again and roll back once more.');
    await this.savePolicy(target.definition, saved.version.version, by);
    return { ...saved, definition: target.definition };
  }

  /** Removes the agent and its versions (runs keep the version they ran, and their scopes stay as they were). */
  async remove(slug: string): Promise<void> {
    if (!(await this.parts.store.remove(slug))) throw new NotFoundError('agent', slug, 'See the agents with `forge agent list`.', 'slug');
  }

  /** A version's tool access, saved as its own policy scope when the version is made: runs pinned to it are decided by it. */
  private async savePolicy(definition: AgentDefinition, version: number, by: AgentAuthor): Promise<void> {
    await this.parts.policies.replace(agentVersionScope(definition.slug, version), { version: POLICY_DOCUMENT_VERSION, defaults: {}, rules: agentPolicyRules(definition) }, { author: by.author, message: `the tool access of agent ${definition.slug} v${version}` });
  }

  private async require(slug: string): Promise<AgentRecord> {
    const agent = await this.parts.store.get(slug);
    if (agent === undefined) throw new NotFoundError('agent', slug, 'See the agents with `forge agent list`, or create one with `forge agent create`.', 'slug');
    return agent;
  }

  private async definitionAt(slug: string, version: number): Promise<{ version: AgentVersionRecord; definition: AgentDefinition }> {
    const record = await this.parts.store.version(slug, version);
    if (record === undefined) throw new NotFoundError('agent version', `${slug}@${version}`, `See the versions with \`forge agent versions ${slug}\`.`);
    return { version: record, definition: parseAgentDefinition(record.definition) };
  }
}
