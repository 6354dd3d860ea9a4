import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentDefinitionError, agentDefinitionSchema, parseAgentDefinition } from './index.js';

const minimal = { version: 1, name: 'Helper', slug: 'helper', system_prompt: 'Help with {{ params.topic }}.', parameters: [{ name: 'topic', type: 'text' }] };

/** The issues a definition is refused with, as `path: message` lines. */
function refusal(value: unknown): string[] {
  try {
    parseAgentDefinition(value);
  } catch (error) {
    if (!(error instanceof AgentDefinitionError)) throw error;
    return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
  }
  throw new Error('the definition was accepted');
}

describe('agent definitions: fields and defaults', () => {
  it('fills every default of a minimal definition', () => {
    expect(parseAgentDefinition(minimal)).toEqual({
      version: 1,
      name: 'Helper',
      slug: 'helper',
      description: '',
      tags: [],
      model: { allow_override: true },
      tools: {},
      mcp_servers: {},
      toolbox: false,
      workspace: 'account',
      mode: 'agent',
      memory: { history_limit: 20, attachments: false, auto_bookmark_urls: false },
      parameters: [{ name: 'topic', type: 'text', required: false, description: '' }],
      outputs: [],
      skills: [],
      system_prompt: 'Help with {{ params.topic }}.',
    });
  });

  it('takes slugs of lowercase letters, digits and hyphens up to 63 characters, and nothing else', () => {
    for (const slug of ['a', 'release-notes', '0day', 'a'.repeat(63)]) expect(parseAgentDefinition({ ...minimal, slug }).slug).toBe(slug);
    for (const slug of ['', '-lead', 'Upper', 'with space', 'under_score', 'a'.repeat(64), 'dots.in']) {
      expect(refusal({ ...minimal, slug })).toEqual(['slug: must be lowercase letters, digits and -, starting with a letter or digit, at most 63 characters']);
    }
  });

  it('bounds the numbers of the model config', () => {
    expect(refusal({ ...minimal, model: { temperature: 2.5, max_tokens: 0 } })).toEqual(['model.temperature: Too big: expected number to be <=2', 'model.max_tokens: Too small: expected number to be >0']);
    expect(parseAgentDefinition({ ...minimal, model: { slug: 'anthropic:claude-sonnet-4-6', temperature: 0, allow_override: false } }).model).toEqual({ slug: 'anthropic:claude-sonnet-4-6', temperature: 0, allow_override: false });
  });

  it('refuses a model slug that is not provider:model, saying how to write one', () => {
    const [issue] = refusal({ ...minimal, model: { slug: 'gpt-4' } });
    expect(issue).toMatch(/^model\.slug: "gpt-4" is not a model slug\. Write provider:model/);
  });

  it('refuses unknown fields by name, at any depth', () => {
    expect(refusal({ ...minimal, colour: 'red' })).toEqual(['colour: is not a field here']);
    expect(refusal({ ...minimal, memory: { history: 3, size: 1 } })).toEqual(['memory.history: is not a field here (nor are size)']);
  });

  it('takes tool access per name or pattern and per MCP server, and nothing but allowed, approval or disabled', () => {
    const definition = parseAgentDefinition({ ...minimal, tools: { web_search: 'allowed', 'mcp__github__*': 'approval', shell: 'disabled' }, mcp_servers: { docs: 'allowed' }, toolbox: true });
    expect(definition.tools).toEqual({ web_search: 'allowed', 'mcp__github__*': 'approval', shell: 'disabled' });
    expect(refusal({ ...minimal, tools: { shell: 'yes' } })).toEqual(['tools.shell: Invalid option: expected one of "allowed"|"approval"|"disabled"']);
    expect(refusal({ ...minimal, tools: { 'bad name!': 'allowed' } })).toEqual([
      'tools["bad name!"]: is not a valid key: must be a tool name, or a name pattern with * (letters, digits, _ and -, 1 to 64 characters)',
    ]);
    expect(refusal({ ...minimal, mcp_servers: { Docs_Server: 'allowed' } })).toEqual([
      "mcp_servers.Docs_Server: is not a valid key: must be an MCP server's name: lower-case letters, digits and single hyphens, at most 32 characters",
    ]);
  });

  it("refuses tool names that reach an object's prototype", () => {
    expect(refusal({ ...minimal, tools: { constructor: 'allowed' } })).toEqual(["tools.constructor: that name reaches an object's prototype and cannot name a tool"]);
  });

  it('refuses an MCP server and a tools entry that set the same pattern', () => {
    expect(refusal({ ...minimal, tools: { 'mcp__docs__*': 'disabled' }, mcp_servers: { docs: 'allowed' } })).toEqual(['mcp_servers.docs: tools also sets mcp__docs__*, which is the same thing; keep one of the two']);
  });

  it('refuses repeated tags and skills, and skill names that are not kebab-case', () => {
    expect(refusal({ ...minimal, tags: ['web', 'web'], skills: ['notes', 'Bad Name', 'notes'] })).toEqual([
      'skills[1]: is not a skill name: it contains whitespace',
      'tags[1]: "web" is listed more than once',
      'skills[2]: "notes" is listed more than once',
    ]);
  });
});

describe('agent definitions: cross-field checks name the path', () => {
  it('refuses two parameters with one name', () => {
    expect(refusal({ ...minimal, parameters: [{ name: 'topic', type: 'text' }, { name: 'depth', type: 'number' }, { name: 'topic', type: 'boolean' }] })).toEqual([
      'parameters[2].name: "topic" is already the name of parameters[0]',
    ]);
  });

  it('refuses an enum parameter without values, and values on other types', () => {
    expect(refusal({ ...minimal, parameters: [{ name: 'topic', type: 'enum' }, { name: 'count', type: 'number', values: ['1'] }] })).toEqual([
      'parameters[0].values: an enum parameter needs values: the list of allowed values',
      'parameters[1].values: values apply to enum parameters only (this one is number)',
    ]);
  });

  it('refuses a default of the wrong type for each type, and an enum default outside its values', () => {
    expect(
      refusal({
        ...minimal,
        parameters: [
          { name: 'topic', type: 'text', default: 3 },
          { name: 'count', type: 'number', default: '5' },
          { name: 'verbose', type: 'boolean', default: 'yes' },
          { name: 'depth', type: 'enum', values: ['quick', 'thorough'], default: 'deep' },
        ],
      }),
    ).toEqual([
      "parameters[0].default: must be text, as the parameter's type is text (got 3)",
      'parameters[1].default: must be a number, as the parameter\'s type is number (got "5")',
      'parameters[2].default: must be true or false, as the parameter\'s type is boolean (got "yes")',
      'parameters[3].default: must be one of the values (quick, thorough), got "deep"',
    ]);
  });

  it('accepts defaults of the right type', () => {
    const definition = parseAgentDefinition({
      ...minimal,
      parameters: [
        { name: 'topic', type: 'text', default: 'zod' },
        { name: 'count', type: 'number', default: 5 },
        { name: 'verbose', type: 'boolean', default: false },
        { name: 'depth', type: 'enum', values: ['quick', 'thorough'], default: 'thorough' },
      ],
    });
    expect(definition.parameters.map((parameter) => parameter.default)).toEqual(['zod', 5, false, 'thorough']);
  });

  it('refuses parameter names that are not lower_snake_case or that reach a prototype', () => {
    expect(refusal({ ...minimal, system_prompt: 'Help.', parameters: [{ name: 'Topic', type: 'text' }, { name: 'constructor', type: 'text' }] })).toEqual([
      'parameters[0].name: must be lower_snake_case: a lowercase letter, then lowercase letters, digits and _ (at most 64 characters)',
      "parameters[1].name: that name reaches an object's prototype; pick another",
    ]);
  });

  it('refuses a json output without a schema, a schema on other types, a schema Forge cannot check, and repeated names', () => {
    expect(
      refusal({
        ...minimal,
        outputs: [
          { name: 'data', type: 'json' },
          { name: 'summary', type: 'text', schema: { type: 'string' } },
          { name: 'items', type: 'json', schema: { type: 'nope' } },
          { name: 'summary', type: 'text' },
        ],
      }),
    ).toEqual([
      'outputs[0].schema: a json output needs a schema: the JSON Schema its value must match',
      'outputs[1].schema: a schema applies to json outputs only (this one is text)',
      'outputs[2].schema: is not a JSON Schema Forge can check values against: type must be JSONType or JSONType[]: nope',
      'outputs[3].name: "summary" is already the name of outputs[1]',
    ]);
  });

  it('refuses a template that does not parse, naming its line and column', () => {
    expect(refusal({ ...minimal, system_prompt: 'One.\nTwo {% if params.topic %}\nthree' })).toEqual(['system_prompt: line 2, column 5: tag {% if params.topic %} not closed']);
    expect(refusal({ ...minimal, preamble: { chat: 'Hi {{ params.topic | shout }}' } })).toEqual(['preamble.chat: line 1, column 4: undefined filter: shout']);
  });

  it('refuses a template that reads a parameter, output or system variable the agent does not have, naming its line and column', () => {
    expect(
      refusal({
        ...minimal,
        outputs: [{ name: 'summary', type: 'text' }],
        system_prompt: 'About {{ params.topic }}.\n\n   {{ params.subject }} and {{ output.report.description }}\n{{ system.clock }} {{ agent.owner }} {{ secrets.key }}',
      }),
    ).toEqual([
      'system_prompt: line 3, column 7: params.subject is not a parameter of this agent (topic)',
      'system_prompt: line 3, column 32: output.report is not an output of this agent (summary)',
      'system_prompt: line 4, column 4: system.clock is not a system variable (they are tools, skills, agents, time, date, context, output_format)',
      'system_prompt: line 4, column 23: agent.owner is not an agent variable (they are name, slug, description, icon, tags)',
      'system_prompt: line 4, column 41: "secrets" is not a variable templates have (they read params.*, output.*, agent.*, system.*)',
    ]);
  });

  it("knows a template's own variables from the ones it reads", () => {
    const prompt = '{% assign n = system.tools.size %}{% for tool in system.tools %}{{ forloop.index }} {{ tool.name }}{% endfor %}{% capture c %}x{% endcapture %}{{ n }}{{ c }}';
    expect(parseAgentDefinition({ ...minimal, system_prompt: prompt }).system_prompt).toBe(prompt);
  });
});

describe('agent definitions: versions', () => {
  it('refuses a definition without a version, and one from a newer Forge, before judging anything else', () => {
    expect(refusal({ name: 'x' })).toEqual(['version: missing; every agent definition says its format version (version: 1)']);
    expect(refusal({ version: 2, whatever: true })).toEqual(['version: format version 2 is newer than this Forge reads (up to 1)']);
  });

  it('refuses what is not an object', () => {
    for (const value of [null, 'text', [minimal], 3]) expect(refusal(value)).toEqual(['(definition): expected an object (a mapping of fields)']);
  });
});

describe('agent definitions: forms', () => {
  type JsonSchemaNode = { title?: string; description?: string; properties?: Record<string, JsonSchemaNode>; items?: JsonSchemaNode; additionalProperties?: JsonSchemaNode | boolean };

  /** Every field of the JSON Schema, by path: object properties, list items and map values, all the way down. */
  function fields(node: JsonSchemaNode, path: string): [string, JsonSchemaNode][] {
    const found: [string, JsonSchemaNode][] = [];
    for (const [name, property] of Object.entries(node.properties ?? {})) found.push([`${path}.${name}`, property], ...fields(property, `${path}.${name}`));
    if (node.items !== undefined) found.push([`${path}[]`, node.items], ...fields(node.items, `${path}[]`));
    if (typeof node.additionalProperties === 'object') found.push([`${path}{}`, node.additionalProperties], ...fields(node.additionalProperties, `${path}{}`));
    return found;
  }

  it('describes every field with a title and a description, so a form can be built from the JSON Schema', () => {
    const schema = z.toJSONSchema(agentDefinitionSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
    const all = fields(schema, '');
    expect(all.length).toBeGreaterThan(40);
    const undescribed = all.filter(([, node]) => !node.title || !node.description).map(([path]) => path);
    expect(undescribed).toEqual([]);
    expect(schema.title).toBe('Agent definition');
    expect(Object.keys(schema.properties ?? {})).toEqual([
      'version', 'name', 'slug', 'description', 'icon', 'tags', 'model', 'tools', 'mcp_servers', 'toolbox', 'workspace', 'mode', 'memory', 'parameters', 'outputs', 'skills', 'system_prompt', 'preamble', 'postamble',
    ]);
    expect((schema as { required?: string[] }).required).toEqual(['version', 'name', 'slug', 'system_prompt']);
  });
});
