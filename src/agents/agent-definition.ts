import { z } from 'zod';
import { ConfigurationError } from '../core/index.js';
import { parseModelSlug } from '../llm/index.js';
import { toolPatternSchema } from '../policy/index.js';
import { skillNameProblem } from '../skills/index.js';
import { MCP_SERVER_NAME_MAX_LENGTH, MCP_SERVER_NAME_PATTERN, inputSchemaFromJsonSchema } from '../tools/mcp/index.js';
import { AgentDefinitionError, AgentTemplateError, type AgentDefinitionIssue, type AgentTemplatePart } from './agent-errors.js';
import { formatAgentPath } from './agent-path.js';
import { MAX_TEMPLATE_LENGTH, parseAgentTemplate } from './agent-template.js';
import { templateReferenceProblems } from './prompt-variables.js';

/** The format version this Forge writes and reads. A newer one is refused rather than guessed at. */
export const AGENT_DEFINITION_VERSION = 1;

/** Where an agent runs: in a chat with a person, in the background, or as one step of an automation. */
export const AGENT_CONTEXTS = ['chat', 'background', 'automation'] as const;
export type AgentContext = (typeof AGENT_CONTEXTS)[number];

/** What an agent may do with a tool: call it, call it after a person approves, or not have it at all. */
export const TOOL_ACCESS = ['allowed', 'approval', 'disabled'] as const;
export type ToolAccess = (typeof TOOL_ACCESS)[number];

export const PARAMETER_TYPES = ['text', 'enum', 'number', 'boolean'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export const OUTPUT_TYPES = ['text', 'json', 'number', 'boolean'] as const;
export type OutputType = (typeof OUTPUT_TYPES)[number];

/** Names that walk into an object's prototype wherever a name becomes a property (`params.constructor`). */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Parameter and output names: what a template writes after `params.` or `output.`. */
const variableNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, 'must be lower_snake_case: a lowercase letter, then lowercase letters, digits and _ (at most 64 characters)')
  .refine((name) => !PROTOTYPE_NAMES.has(name), "that name reaches an object's prototype; pick another");

const toolAccessSchema = z.enum(TOOL_ACCESS).meta({
  title: 'Access',
  description: 'allowed: the agent may call it; approval: each call waits for a person to approve it; disabled: the agent does not have it and a call to it is blocked.',
});

const mcpServerNameSchema = z
  .string()
  .max(MCP_SERVER_NAME_MAX_LENGTH)
  .regex(MCP_SERVER_NAME_PATTERN, `must be an MCP server's name: lower-case letters, digits and single hyphens, at most ${MCP_SERVER_NAME_MAX_LENGTH} characters`);

const templateText = (title: string, description: string) => z.string().max(MAX_TEMPLATE_LENGTH).meta({ title, description });

const perContextTemplates = (kind: 'preamble' | 'postamble') =>
  z
    .object(
      Object.fromEntries(
        AGENT_CONTEXTS.map((context) => [
          context,
          templateText(`${context} ${kind}`, `Replaces Forge's default ${kind} when the agent runs in ${context === 'chat' ? 'a chat' : context === 'background' ? 'the background' : 'an automation'} (a Liquid template; empty: none).`).optional(),
        ]),
      ) as Record<AgentContext, z.ZodOptional<z.ZodString>>,
    )
    .strict()
    .meta({
      title: kind === 'preamble' ? 'Preambles' : 'Postambles',
      description:
        kind === 'preamble'
          ? 'Text placed before the system prompt, per context (chat, background, automation); a context left out keeps the default.'
          : 'Text placed after the system prompt, per context; a context left out keeps the default (in automation it asks for JSON matching the outputs).',
    });

export const agentParameterSchema = z
  .object({
    name: variableNameSchema.meta({ title: 'Name', description: 'How the prompt template refers to it: {{ params.<name> }}.' }),
    type: z.enum(PARAMETER_TYPES).meta({ title: 'Type', description: 'text, enum (one of `values`), number or boolean.' }),
    values: z
      .array(z.string().min(1).max(200).meta({ title: 'Value', description: 'One allowed value.' }))
      .min(1)
      .max(100)
      .optional()
      .meta({ title: 'Values', description: 'For enum parameters: the allowed values.' }),
    required: z.boolean().default(false).meta({ title: 'Required', description: 'A run needs a value for it (given, or its default); a chat asks for it when the message does not say.' }),
    default: z.union([z.string().max(10_000), z.number(), z.boolean()]).optional().meta({ title: 'Default', description: 'The value when none is given; of the parameter\'s type (for enum, one of the values).' }),
    description: z.string().max(1000).default('').meta({ title: 'Description', description: 'What the value means; shown in forms and to the model that reads it from a message.' }),
  })
  .strict()
  .meta({ title: 'Parameter', description: 'A typed input the agent takes, filled per run.' });

export const agentOutputSchema = z
  .object({
    name: variableNameSchema.meta({ title: 'Name', description: 'The key of this output in the JSON an automation run returns, and {{ output.<name> }} in templates.' }),
    type: z.enum(OUTPUT_TYPES).meta({ title: 'Type', description: 'text, json (matching `schema`), number or boolean.' }),
    description: z.string().max(1000).default('').meta({ title: 'Description', description: 'What this output holds; told to the model.' }),
    schema: z
      .record(z.string(), z.unknown().meta({ title: 'Keyword', description: 'One keyword of the JSON Schema (type, properties, items, required, …).' }))
      .optional().meta({ title: 'JSON Schema', description: 'For json outputs: the JSON Schema the value must match.' }),
  })
  .strict()
  .meta({ title: 'Output', description: 'A result the agent produces; validated when the agent runs in an automation.' });

const agentDefinitionShape = z
  .object({
    version: z.literal(AGENT_DEFINITION_VERSION).meta({ title: 'Format version', description: `The version of this format (${AGENT_DEFINITION_VERSION}).` }),
    name: z.string().trim().min(1).max(100).meta({ title: 'Name', description: 'The agent\'s name as people read it.' }),
    slug: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lowercase letters, digits and -, starting with a letter or digit, at most 63 characters')
      .meta({ title: 'Slug', description: 'Its identifier in commands, URLs and policy scopes (agent:<slug>).' }),
    description: z.string().max(2000).default('').meta({ title: 'Description', description: 'What the agent is for.' }),
    icon: z
      .string()
      .min(1)
      .max(16)
      .regex(/^\S+$/u, 'must be a short symbol or emoji without spaces')
      .optional()
      .meta({ title: 'Icon', description: 'A short symbol or emoji shown beside the name.' }),
    tags: z
      .array(z.string().trim().min(1).max(40).meta({ title: 'Tag', description: 'One tag.' }))
      .max(20)
      .default([])
      .meta({ title: 'Tags', description: 'Words to find and group agents by.' }),
    model: z
      .object({
        slug: z.string().min(1).max(500).optional().meta({ title: 'Model', description: 'The model to run on (provider:model, e.g. openai:gpt-4.1-mini); absent: the installation\'s model.' }),
        temperature: z.number().min(0).max(2).optional().meta({ title: 'Temperature', description: 'Sampling temperature, 0 to 2; absent: the model\'s default.' }),
        max_tokens: z.number().int().positive().max(1_000_000).optional().meta({ title: 'Max tokens', description: 'The most tokens one model reply may have; absent: the model\'s default.' }),
        allow_override: z.boolean().default(true).meta({ title: 'Allow override', description: 'Whether a run may choose another model (forge run --model).' }),
      })
      .strict()
      .default({ allow_override: true })
      .meta({ title: 'Model', description: 'Which model the agent runs on and how.' }),
    tools: z
      .record(toolPatternSchema, toolAccessSchema)
      .default({})
      .meta({
        title: 'Tools',
        description:
          'Per tool name, or name pattern with * (mcp__github__*, *): allowed, approval or disabled. Built-in, optional, MCP and toolbox tools alike; the most specific entry decides, and tools no entry names are not offered.',
      }),
    mcp_servers: z
      .record(mcpServerNameSchema, toolAccessSchema)
      .default({})
      .meta({ title: 'MCP servers', description: 'Per MCP server name: the access of all its tools (mcp__<server>__*); an entry in tools for one of them is more specific and wins.' }),
    toolbox: z.boolean().default(false).meta({ title: 'Toolbox', description: 'Also offer every verified toolbox tool (synthesized tools, now and later) unless tools disables it.' }),
    workspace: z
      .enum(['account', 'agent'])
      .default('account')
      .meta({
        title: 'Workspace',
        description: "Where its workspace tools (files, git, shell) work: account: the folder of the account that runs it (shared by that account's runs); agent: a folder of the agent's own inside it.",
      }),
    mode: z
      .enum(['agent', 'converge'])
      .default('agent')
      .meta({ title: 'Mode', description: 'agent: the model calls tools until it answers; converge: one tool per turn, a plan, and request_tool to write missing tools through the verification gate (forge run --converge).' }),
    memory: z
      .object({
        history_limit: z.number().int().min(0).max(1000).default(20).meta({ title: 'History limit', description: 'How many earlier conversation messages a chat turn sees.' }),
        attachments: z.boolean().default(false).meta({ title: 'Attachments', description: 'Whether files attached to a message are given to the agent.' }),
        auto_bookmark_urls: z.boolean().default(false).meta({ title: 'Bookmark URLs', description: 'Whether URLs in messages are saved as bookmarks automatically.' }),
      })
      .strict()
      .default({ history_limit: 20, attachments: false, auto_bookmark_urls: false })
      .meta({ title: 'Memory', description: 'What the agent remembers of a conversation.' }),
    parameters: z.array(agentParameterSchema).max(50).default([]).meta({ title: 'Parameters', description: 'Typed inputs, each {{ params.<name> }} in the templates.' }),
    outputs: z.array(agentOutputSchema).max(50).default([]).meta({ title: 'Outputs', description: 'Typed results; in an automation the agent replies with one JSON object holding them.' }),
    skills: z
      .array(
        z
          .string()
          .superRefine((name, context) => {
            const problem = skillNameProblem(name);
            if (problem !== undefined) context.addIssue({ code: 'custom', message: `is not a skill name: ${problem}` });
          })
          .meta({ title: 'Skill', description: 'A skill name (kebab-case).' }),
      )
      .max(100)
      .default([])
      .meta({ title: 'Skills', description: 'Skills the agent may replay.' }),
    system_prompt: templateText('System prompt', 'What the agent is told: a Liquid template with params.*, output.*, agent.* and system.* (tools, skills, agents, time, date).').min(1),
    preamble: perContextTemplates('preamble').optional(),
    postamble: perContextTemplates('postamble').optional(),
  })
  .strict();

type DefinitionShape = z.output<typeof agentDefinitionShape>;

function addIssue(context: z.core.$RefinementCtx, path: (string | number)[], message: string): void {
  context.addIssue({ code: 'custom', path, message });
}

function checkParameters(definition: DefinitionShape, context: z.core.$RefinementCtx): void {
  const seen = new Map<string, number>();
  definition.parameters.forEach((parameter, index) => {
    const first = seen.get(parameter.name);
    if (first === undefined) seen.set(parameter.name, index);
    else addIssue(context, ['parameters', index, 'name'], `"${parameter.name}" is already the name of parameters[${first}]`);
    if (parameter.type === 'enum' && parameter.values === undefined) addIssue(context, ['parameters', index, 'values'], 'an enum parameter needs values: the list of allowed values');
    if (parameter.type !== 'enum' && parameter.values !== undefined) addIssue(context, ['parameters', index, 'values'], `values apply to enum parameters only (this one is ${parameter.type})`);
    if (parameter.values !== undefined && new Set(parameter.values).size !== parameter.values.length) addIssue(context, ['parameters', index, 'values'], 'lists a value more than once');
    if (parameter.default !== undefined) {
      const problem = defaultProblem(parameter);
      if (problem !== undefined) addIssue(context, ['parameters', index, 'default'], problem);
    }
  });
}

function defaultProblem(parameter: z.output<typeof agentParameterSchema>): string | undefined {
  const value = parameter.default;
  switch (parameter.type) {
    case 'text':
      return typeof value === 'string' ? undefined : `must be text, as the parameter's type is text (got ${JSON.stringify(value)})`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `must be a number, as the parameter's type is number (got ${JSON.stringify(value)})`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be true or false, as the parameter's type is boolean (got ${JSON.stringify(value)})`;
    case 'enum':
      return typeof value === 'string' && (parameter.values === undefined || parameter.values.includes(value))
        ? undefined
        : `must be one of the values (${(parameter.values ?? []).join(', ')}), got ${JSON.stringify(value)}`;
  }
}

function checkOutputs(definition: DefinitionShape, context: z.core.$RefinementCtx): void {
  const seen = new Map<string, number>();
  definition.outputs.forEach((output, index) => {
    const first = seen.get(output.name);
    if (first === undefined) seen.set(output.name, index);
    else addIssue(context, ['outputs', index, 'name'], `"${output.name}" is already the name of outputs[${first}]`);
    if (output.type === 'json' && output.schema === undefined) addIssue(context, ['outputs', index, 'schema'], 'a json output needs a schema: the JSON Schema its value must match');
    if (output.type !== 'json' && output.schema !== undefined) addIssue(context, ['outputs', index, 'schema'], `a schema applies to json outputs only (this one is ${output.type})`);
    if (output.type === 'json' && output.schema !== undefined) {
      try {
        inputSchemaFromJsonSchema(output.schema);
      } catch (error) {
        addIssue(context, ['outputs', index, 'schema'], `is not a JSON Schema Forge can check values against: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  });
}

function checkTools(definition: DefinitionShape, context: z.core.$RefinementCtx): void {
  for (const key of Object.keys(definition.tools)) {
    if (PROTOTYPE_NAMES.has(key)) addIssue(context, ['tools', key], "that name reaches an object's prototype and cannot name a tool");
  }
  for (const server of Object.keys(definition.mcp_servers)) {
    if (definition.tools[mcpServerPattern(server)] !== undefined) {
      addIssue(context, ['mcp_servers', server], `tools also sets ${mcpServerPattern(server)}, which is the same thing; keep one of the two`);
    }
  }
}

/** The tool pattern that names every tool of an MCP server. */
export function mcpServerPattern(server: string): string {
  return `mcp__${server}__*`;
}

function checkModel(definition: DefinitionShape, context: z.core.$RefinementCtx): void {
  if (definition.model.slug === undefined) return;
  try {
    parseModelSlug(definition.model.slug, 'model.slug');
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    addIssue(context, ['model', 'slug'], `${error.message.replace(/^model\.slug: /, '')} ${error.hint ?? ''}`.trim());
  }
}

function checkUnique(definition: DefinitionShape, context: z.core.$RefinementCtx, field: 'tags' | 'skills'): void {
  const values = definition[field];
  values.forEach((value, index) => {
    if (values.indexOf(value) !== index) addIssue(context, [field, index], `"${value}" is listed more than once`);
  });
}

/** Every template of a definition with where it sits, the system prompt first. */
function definitionTemplates(definition: Pick<DefinitionShape, 'system_prompt' | 'preamble' | 'postamble'>): { part: AgentTemplatePart; path: string[]; source: string }[] {
  const templates: { part: AgentTemplatePart; path: string[]; source: string }[] = [{ part: 'system_prompt', path: ['system_prompt'], source: definition.system_prompt }];
  for (const kind of ['preamble', 'postamble'] as const) {
    for (const context of AGENT_CONTEXTS) {
      const source = definition[kind]?.[context];
      if (source !== undefined) templates.push({ part: `${kind}.${context}`, path: [kind, context], source });
    }
  }
  return templates;
}

function checkTemplates(definition: DefinitionShape, context: z.core.$RefinementCtx): void {
  for (const { path, part, source } of definitionTemplates(definition)) {
    try {
      const parsed = parseAgentTemplate(part, source);
      for (const problem of templateReferenceProblems(definition, parsed)) addIssue(context, path, problem);
    } catch (error) {
      if (!(error instanceof AgentTemplateError)) throw error;
      addIssue(context, path, error.located);
    }
  }
}

/**
 * An agent definition, version 1: identity, model, tools, memory, typed parameters and outputs, the
 * skills it may replay, and its prompt templates. The one schema that defines the format, validates
 * it (field checks, then cross-field checks that name the path: duplicate names, enum parameters
 * without values, defaults of the wrong type, json outputs without a usable JSON Schema, templates
 * that do not parse or read variables that do not exist) and, through `z.toJSONSchema`, describes
 * every field for a form (each has a title and a description).
 */
export const agentDefinitionSchema = agentDefinitionShape
  .superRefine((definition, context) => {
    checkParameters(definition, context);
    checkOutputs(definition, context);
    checkTools(definition, context);
    checkModel(definition, context);
    checkUnique(definition, context, 'tags');
    checkUnique(definition, context, 'skills');
    checkTemplates(definition, context);
  })
  .meta({ title: 'Agent definition', description: 'A Forge agent: who it is, which model and tools it uses, what it takes and returns, and what it is told.' });

/** A valid definition, defaults filled in. */
export type AgentDefinition = z.output<typeof agentDefinitionSchema>;
/** What a definition may be written as (defaults may be left out). */
export type AgentDefinitionInput = z.input<typeof agentDefinitionSchema>;
export type AgentParameter = z.output<typeof agentParameterSchema>;
export type AgentOutput = z.output<typeof agentOutputSchema>;

/** What a failed parse found wrong, each with its path; an unknown field is named in the path, not only in the message. */
function definitionIssues(error: z.ZodError): AgentDefinitionIssue[] {
  return error.issues.map((issue) => {
    let segments = issue.path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
    let message = issue.message;
    if (issue.code === 'invalid_key') message = `is not a valid key: ${issue.issues.map((inner) => inner.message).join('; ')}`;
    if (issue.code === 'unrecognized_keys') {
      segments = [...segments, issue.keys[0]!];
      message = `is not a field here${issue.keys.length === 1 ? '' : ` (nor are ${issue.keys.slice(1).join(', ')})`}`;
    }
    return { path: formatAgentPath(segments), segments, message };
  });
}

/**
 * Reads a definition from plain data (parsed YAML or JSON, an API body) and returns it with defaults
 * filled in. Throws `AgentDefinitionError` naming every bad field; a definition from a newer Forge is
 * refused by its version before anything else is judged.
 */
export function parseAgentDefinition(value: unknown): AgentDefinition {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new AgentDefinitionError([{ path: '(definition)', message: 'expected an object (a mapping of fields)' }]);
  const version = (value as Record<string, unknown>)['version'];
  if (version === undefined) throw new AgentDefinitionError([{ path: 'version', segments: ['version'], message: `missing; every agent definition says its format version (version: ${AGENT_DEFINITION_VERSION})` }]);
  if (typeof version === 'number' && Number.isInteger(version) && version > AGENT_DEFINITION_VERSION) {
    throw new AgentDefinitionError([{ path: 'version', segments: ['version'], message: `format version ${version} is newer than this Forge reads (up to ${AGENT_DEFINITION_VERSION})` }], 'Upgrade Forge to use this agent definition.');
  }
  const parsed = agentDefinitionSchema.safeParse(value);
  if (!parsed.success) throw new AgentDefinitionError(definitionIssues(parsed.error));
  return parsed.data;
}
