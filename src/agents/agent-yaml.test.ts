import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AgentDefinitionError, AgentSecretValueError, MAX_AGENT_FILE_BYTES, MAX_YAML_KEYS_PER_MAPPING, MAX_YAML_NODES, exportAgentYaml, importAgentYaml, parseAgentDefinition } from './index.js';

function corpus(name: string): string {
  return readFileSync(new URL(`./corpus/${name}`, import.meta.url), 'utf8');
}

/** What importing `text` is refused with: the error's name and each issue as `path (line): message`. */
function refusal(text: string): { name: string; issues: string[] } {
  try {
    importAgentYaml(text);
  } catch (error) {
    if (!(error instanceof AgentDefinitionError) && !(error instanceof AgentSecretValueError)) throw error;
    return { name: error.name, issues: error.issues.map((issue) => `${issue.path}${issue.line === undefined ? '' : ` (${issue.line}:${issue.column})`}: ${issue.message}`) };
  }
  throw new Error('the file was imported');
}

// Built at run time, so no file of the repository holds anything shaped like a real key.
const openaiKey = 'sk-' + 'proj-' + 'Q7xT2mK9vL4pR8sW1nB6'.repeat(2);
const githubToken = 'gh' + 'p_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
const randomKey = 'dGhpcyBpcyBhIHNlY3JldCBrZXk' + 'gZm9yIHRlc3Rpbmc9PT1xWjk4';

describe('agent YAML: the corpus', () => {
  it('imports the complete version 1 definition with every field as written', () => {
    const definition = importAgentYaml(corpus('v1-researcher.yaml'));
    expect(definition).toEqual(parseAgentDefinition(parse(corpus('v1-researcher.yaml'))));
    expect(definition.tools).toEqual({ web_search: 'allowed', read_url: 'allowed', http_request: 'approval', shell: 'disabled', 'file_*': 'disabled' });
    expect(definition.parameters.map((parameter) => [parameter.name, parameter.type, parameter.default])).toEqual([
      ['topic', 'text', undefined],
      ['depth', 'enum', 'quick'],
      ['max_sources', 'number', 5],
      ['include_code', 'boolean', false],
    ]);
    expect(definition.outputs[1]).toEqual({ name: 'sources', type: 'json', description: 'The sources read.', schema: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' }, title: { type: 'string' } }, required: ['url'] } } });
    expect(definition.postamble).toEqual({ background: '' });
  });

  it('imports the minimal definition with defaults filled in', () => {
    expect(importAgentYaml(corpus('v1-minimal.yaml'))).toMatchObject({ slug: 'echo', tools: {}, memory: { history_limit: 20 }, model: { allow_override: true } });
  });

  it.each([
    ['future-version.yaml', 'version (1:1): format version 2 is newer than this Forge reads (up to 1)'],
    ['missing-version.yaml', 'version: missing; every agent definition says its format version (version: 1)'],
    ['duplicate-parameter.yaml', 'parameters[1].name (7:5): "topic" is already the name of parameters[0]'],
    ['enum-without-values.yaml', 'parameters[0].values (5:5): an enum parameter needs values: the list of allowed values'],
    ['json-output-without-schema.yaml', 'outputs[1].schema (7:5): a json output needs a schema: the JSON Schema its value must match'],
    ['unknown-field.yaml', 'memory.histroy (7:3): is not a field here'],
    ['template-missing-variable.yaml', 'system_prompt (7:1): line 3, column 10: params.subject is not a parameter of this agent (topic)'],
    ['not-a-mapping.yaml', '(definition): expected an object (a mapping of fields)'],
    ['not-yaml.yaml', '(file) (3:1): Flow sequence in block collection must be sufficiently indented and end with a ]'],
    ['duplicate-key.yaml', '(file) (6:3): Map keys must be unique'],
    ['two-documents.yaml', '(file) (5:1): holds more than one YAML document; an agent file holds one'],
    ['alias-bomb.yaml', '(file): expands more than 100 aliases, so it was not read'],
  ])('refuses %s, naming the path and the line', (file, issue) => {
    expect(refusal(corpus(file))).toEqual({ name: 'AgentDefinitionError', issues: [issue] });
  });

  it('reads YAML 1.2: yes is a word, not true', () => {
    expect(refusal(corpus('wrong-default-type.yaml')).issues).toEqual([
      'parameters[0].default (7:5): must be a number, as the parameter\'s type is number (got "five")',
      'parameters[1].default (10:5): must be true or false, as the parameter\'s type is boolean (got "yes")',
    ]);
  });

  it('refuses every tag, the standard ones included, at the tagged value: nothing but plain data is built from a file', () => {
    expect(refusal(corpus('custom-tag.yaml')).issues).toEqual([
      '(file) (4:23): the tag !!binary is not allowed: agent files are plain YAML',
      '(file) (5:29): the tag !js/function is not allowed: agent files are plain YAML',
    ]);
  });

  it('refuses a file larger than the limit before parsing it, and one that nests too deeply', () => {
    const large = `version: 1\nsystem_prompt: "${'a'.repeat(MAX_AGENT_FILE_BYTES)}"\n`;
    expect(refusal(large).issues).toEqual([`(file): is ${Buffer.byteLength(large)} bytes, more than the ${MAX_AGENT_FILE_BYTES} an agent file may have`]);
    const deep = refusal(`a: ${'['.repeat(50_000)}${']'.repeat(50_000)}`).issues;
    expect(deep).toHaveLength(1);
    expect(deep[0]).toMatch(/^\(file\) \(1:\d+\): nests too deeply$/);
  });

  it('takes a __proto__ key as a plain unknown field, and pollutes nothing', () => {
    expect(refusal('version: 1\n__proto__:\n  polluted: true\nname: x\nslug: x\nsystem_prompt: x\n').issues).toEqual(['__proto__ (2:1): is not a field here']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

/** `count` distinct lower-case keys of three letters, then four, each `key: 0` (three letters) or `key:` (four). */
function keyLines(count: number): string[] {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return Array.from({ length: count }, (_, index) => {
    const width = index < 26 ** 3 ? 3 : 4;
    let key = '';
    for (let rest = index, place = 0; place < width; place += 1, rest = Math.floor(rest / 26)) key = letters[rest % 26] + key;
    return width === 3 ? `${key}: 0` : `${key}:`;
  });
}

/**
 * Issue 26, finding 5: the YAML library's duplicate-key check is quadratic in a mapping's keys, so a
 * 250 KB file of 36,000 keys held the event loop for seconds. Keys per mapping and nodes per file are
 * counted on the concrete syntax tree (linear) before any document is built.
 */
describe('agent YAML: key bombs', () => {
  it('refuses the 250 KB file of 36,000 keys in one mapping before building it, naming the mapping and the cap', () => {
    const body = `${keyLines(36_000).join('\n')}\n`;
    const bomb = `# ${'x'.repeat(250_000 - body.length - 3)}\n${body}`;
    expect(Buffer.byteLength(bomb)).toBe(250_000);
    expect(refusal(bomb)).toEqual({ name: 'AgentDefinitionError', issues: [`(file) (2:1): a mapping holds more than ${MAX_YAML_KEYS_PER_MAPPING} keys, more than an agent file ever needs, so the file was not read`] });
  });

  it('refuses a file of more nodes than the cap spread over many small mappings, and one flow mapping past the key cap', () => {
    const many = `version: 1\nparameters:\n${Array.from({ length: MAX_YAML_NODES / 4 + 1 }, (_, index) => `  - {name: p${index}, type: text}`).join('\n')}\n`;
    expect(Buffer.byteLength(many)).toBeLessThan(MAX_AGENT_FILE_BYTES);
    expect(refusal(many)).toEqual({ name: 'AgentDefinitionError', issues: [`(file): holds more than ${MAX_YAML_NODES} YAML nodes, more than an agent file ever needs, so it was not read`] });
    const flow = `tools: {${keyLines(MAX_YAML_KEYS_PER_MAPPING + 1).map((line) => line.replace(/:$/, ': 0')).join(', ')}}\n`;
    expect(refusal(flow).issues).toEqual([`(file) (1:8): a mapping holds more than ${MAX_YAML_KEYS_PER_MAPPING} keys, more than an agent file ever needs, so the file was not read`]);
  });

  it('reads a file with as many keys in one mapping as the cap allows', () => {
    const atCap = `version: 1\nslug: wide\nname: Wide\nsystem_prompt: hi\nmodel: {slug: "openai:gpt-4.1-mini"}\ntools:\n${keyLines(MAX_YAML_KEYS_PER_MAPPING).map((line) => `  ${line.replace(/:( 0)?$/, '')}: disabled`).join('\n')}\n`;
    expect(Object.keys(importAgentYaml(atCap).tools)).toHaveLength(MAX_YAML_KEYS_PER_MAPPING);
  });
});

describe('agent YAML: round trip', () => {
  it('exports a definition that imports as an equal definition, and exports the same text again', () => {
    const definition = importAgentYaml(corpus('v1-researcher.yaml'));
    const text = exportAgentYaml(definition);
    expect(importAgentYaml(text)).toEqual(definition);
    expect(exportAgentYaml(importAgentYaml(text))).toBe(text);
  });

  it('keeps values YAML would otherwise read as something else: words like true and null, *, trailing spaces, # and :', () => {
    const definition = parseAgentDefinition({
      version: 1,
      name: 'Tricky',
      slug: 'tricky',
      description: 'yes',
      tags: ['true', '1', 'null', '*', '#hash'],
      tools: { '*': 'approval', 'mcp__docs__*': 'allowed' },
      system_prompt: 'line one  \n\n  indented\ttab\nlast: x # not a comment',
    });
    expect(importAgentYaml(exportAgentYaml(definition))).toEqual(definition);
  });

  it('writes multi-line templates as literal blocks and the fields in the schema order', () => {
    const text = exportAgentYaml(importAgentYaml(corpus('v1-researcher.yaml')));
    expect(text).toContain('system_prompt: |\n  Research {{ params.topic }}.\n');
    const topLevel = text.split('\n').filter((line) => /^[a-z_]+:/.test(line)).map((line) => line.split(':')[0]);
    expect(topLevel).toEqual(['version', 'name', 'slug', 'description', 'icon', 'tags', 'model', 'tools', 'mcp_servers', 'toolbox', 'workspace', 'mode', 'memory', 'parameters', 'outputs', 'skills', 'system_prompt', 'preamble', 'postamble']);
  });
});

describe('agent YAML: secrets never travel in a file', () => {
  it('refuses a file with a provider key, a token, URL credentials or a long random string, naming where and never what', () => {
    const text = [
      'version: 1',
      'name: Leaky',
      'slug: leaky',
      'model:',
      '  slug: openai-compatible:llama@http://admin:hunter2@10.0.0.5:8000/v1',
      `description: call it with ${openaiKey}`,
      'tools:',
      `  ${githubToken}: allowed`,
      'system_prompt: |',
      '  Be helpful.',
      `  The key is ${randomKey}.`,
    ].join('\n');
    try {
      importAgentYaml(text);
      throw new Error('imported');
    } catch (error) {
      expect(error).toBeInstanceOf(AgentSecretValueError);
      const refused = error as AgentSecretValueError;
      expect(refused.issues.map((issue) => `${issue.path} (${issue.line}): ${issue.message}`)).toEqual([
        'description (6): looks like an API key (sk-…)',
        'model.slug (5): looks like a URL with a user name or password',
        'system_prompt (9): looks like a long random string (a key?)',
        'tools["[redacted]"] (8): looks like a GitHub token as a key',
      ]);
      for (const secret of [openaiKey, githubToken, randomKey, 'hunter2']) expect(JSON.stringify({ message: refused.message, issues: refused.issues })).not.toContain(secret);
    }
  });

  it('redacts such values on export, so the file holds no secret', () => {
    const definition = parseAgentDefinition({
      version: 1,
      name: 'Leaky',
      slug: 'leaky',
      description: `Uses ${openaiKey} and ${githubToken}.`,
      system_prompt: `Authenticate with ${randomKey} at http://bot:s3cretpass@api.example.com/v1.`,
    });
    const text = exportAgentYaml(definition);
    for (const secret of [openaiKey, githubToken, randomKey, 's3cretpass']) expect(text).not.toContain(secret);
    expect(importAgentYaml(text)).toMatchObject({ description: 'Uses [redacted] and [redacted].', system_prompt: 'Authenticate with [redacted] at http://***@api.example.com/v1.' });
  });
});
