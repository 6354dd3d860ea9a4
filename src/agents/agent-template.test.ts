import { describe, expect, it } from 'vitest';
import { AgentTemplateError } from './agent-errors.js';
import { MAX_RENDERED_LENGTH, MAX_TEMPLATE_LENGTH, MAX_TEMPLATE_NESTING, RENDER_TIME_LIMIT_MS, parseAgentTemplate, renderAgentTemplate } from './agent-template.js';

const scope = {
  params: { topic: 'zod', depth: 'thorough', count: 3, verbose: false, optional: null },
  system: { tools: [{ name: 'web_search', description: 'Search the web' }, { name: 'read_url', description: 'Read a page' }] },
};

function render(source: string, variables: Record<string, unknown> = scope): string {
  return renderAgentTemplate(parseAgentTemplate('system_prompt', source), variables);
}

/** The template error `action` throws, for assertions on exactly what it says. */
function templateError(action: () => unknown): AgentTemplateError {
  try {
    action();
  } catch (error) {
    if (error instanceof AgentTemplateError) return error;
    throw error;
  }
  throw new Error('no template error was thrown');
}

describe('agent templates: the language', () => {
  it('renders variables, conditionals, loops and filters', () => {
    expect(render('Research {{ params.topic | upcase }}.')).toBe('Research ZOD.');
    expect(render('{% if params.depth == "thorough" %}Read {{ params.count | times: 2 }} sources.{% else %}Skim.{% endif %}')).toBe('Read 6 sources.');
    expect(render('{% unless params.verbose %}Be brief.{% endunless %}{% if params.optional %}never{% endif %}')).toBe('Be brief.');
    expect(render('{% for tool in system.tools %}{{ forloop.index }}. {{ tool.name }}: {{ tool.description | downcase }}{% unless forloop.last %}\n{% endunless %}{% endfor %}')).toBe(
      '1. web_search: search the web\n2. read_url: read a page',
    );
    expect(render('{{ system.tools | map: "name" | join: ", " }} ({{ system.tools.size }})')).toBe('web_search, read_url (2)');
    expect(render('{% case params.depth %}{% when "quick" %}q{% when "thorough" %}t{% endcase %}{% assign n = params.count | plus: 1 %}{{ n }}')).toBe('t4');
    expect(render('{% liquid\n  if params.count > 2\n    echo "many"\n  endif\n%}')).toBe('many');
  });

  it('prints dates in UTC', () => {
    expect(render('{{ "2026-03-01T23:30:00Z" | date: "%Y-%m-%d %H:%M" }}')).toBe('2026-03-01 23:30');
  });

  it('names the line and column of a variable the scope does not have', () => {
    const error = templateError(() => render('First line.\nSecond line.\n   {{ params.missing }} here.'));
    expect(error.name).toBe('AgentTemplateError');
    expect([error.part, error.line, error.column]).toEqual(['system_prompt', 3, 7]);
    expect(error.message).toBe('Template error in system_prompt line 3, column 7: undefined variable: params.missing');
  });

  it('names the line and column of a field that does not exist inside a loop', () => {
    const error = templateError(() => render('Tools:\n{% for tool in system.tools %}\n- {{ tool.nmae }}\n{% endfor %}'));
    expect([error.line, error.column, error.reason]).toEqual([3, 6, 'undefined variable: tool.nmae']);
  });

  it('names the line and column of a syntax error and of an unknown tag or filter', () => {
    expect(templateError(() => render('a\n{% if params.topic %}\nb')).message).toBe('Template error in system_prompt line 2, column 1: tag {% if params.topic %} not closed');
    expect(templateError(() => render('a\n  {% shout %}')).located).toBe('line 2, column 3: tag "shout" not found');
    expect(templateError(() => render('{{ params.topic | shout }}')).located).toBe('line 1, column 1: undefined filter: shout');
  });
});

describe('agent templates: the sandbox', () => {
  it('shows no inherited property: constructor, __proto__ and prototype walks are undefined variables', () => {
    for (const [source, variable] of [
      ['{{ params.constructor }}', 'params.constructor'],
      ['{{ params.__proto__ }}', 'params.__proto__'],
      ["{{ params['constructor']['constructor'] }}", 'params.constructor'],
      ['{{ params.topic.constructor.constructor }}', 'params.topic.constructor'],
      ['{{ system.tools.constructor }}', 'system.tools.constructor'],
      ['{{ system.tools[0].constructor.name }}', 'system.tools.0.constructor'],
      ['{{ params.toString }}', 'params.toString'],
      ['{% assign p = params %}{{ p.hasOwnProperty }}', 'p.hasOwnProperty'],
    ] as const) {
      expect(templateError(() => render(source)).reason).toBe(`undefined variable: ${variable}`);
    }
  });

  it('has no filter named after a property of Object, and filters that read properties see none inherited', () => {
    expect(templateError(() => render("{{ 'x' | constructor }}")).reason).toBe('undefined filter: constructor');
    expect(templateError(() => render("{{ 'x' | __proto__ }}")).reason).toBe('undefined filter: __proto__');
    expect(render("[{{ system.tools | map: 'constructor' | join: ',' }}]")).toBe('[,]');
    expect(render("{{ system.tools | map: '__proto__' | json }}")).toBe('[null,null]');
    expect(render("{{ params.topic | split: '' | map: 'constructor' | join: '' }}")).toBe('');
    expect(render("{{ system.tools | sum: 'constructor' }}")).toBe('0');
  });

  it('cannot read files: include, render and layout fail at parse time, with a file or without', () => {
    for (const [source, tag] of [
      ["{% include '/etc/passwd' %}", 'include'],
      ['{% render "../../etc/passwd" %}', 'render'],
      ["{% layout 'default' %}", 'layout'],
      ["{% include params.topic %}", 'include'],
      ['{% render %}', 'render'],
      ["Hi.\n{% liquid\n  render 'secrets.txt'\n%}", 'render'],
    ] as const) {
      const error = templateError(() => parseAgentTemplate('system_prompt', source));
      expect(error.reason).toBe(`the ${tag} tag is not available: agent templates cannot read files or other templates`);
    }
    expect(templateError(() => parseAgentTemplate('system_prompt', "Hi.\n{% liquid\n  render 'secrets.txt'\n%}")).located).toMatch(/^line 3, column 3: /);
  });

  it('stops a loop over a huge range at once, by its allocation limit', () => {
    const error = templateError(() => render('{% for i in (1..100000000) %}x{% endfor %}'));
    expect(error.reason).toBe('rendering needed more than 1000000 units of memory (a range or string too large?) and was stopped');
    expect([error.line, error.column]).toEqual([1, 1]);
  });

  it('stops nested loops that would run a million times, by its time limit', () => {
    const error = templateError(() => render('{% for i in (1..1000) %}{% for j in (1..1000) %}{{ i }}{% endfor %}{% endfor %}'));
    expect(error.reason).toBe(`rendering took longer than ${RENDER_TIME_LIMIT_MS} ms (a loop too large?) and was stopped`);
  });

  it('stops a string that doubles itself', () => {
    const error = templateError(() => render("{% assign s = 'xx' %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s.size }}"));
    expect(error.reason).toMatch(/^rendering needed more than 1000000 units of memory/);
  });

  it('refuses a render longer than the limit', () => {
    const error = templateError(() => render('{% for i in (1..20000) %}0123456789{% endfor %}'));
    expect(error.reason).toBe(`the template renders to 200000 characters, more than the ${MAX_RENDERED_LENGTH} allowed`);
  });

  it('refuses blocks nested deeper than the limit before parsing them, and takes the limit itself', () => {
    const nested = (depth: number) => '{% if true %}'.repeat(depth) + 'x' + '{% endif %}'.repeat(depth);
    expect(render(nested(MAX_TEMPLATE_NESTING))).toBe('x');
    const error = templateError(() => parseAgentTemplate('system_prompt', nested(MAX_TEMPLATE_NESTING + 1)));
    expect(error.reason).toBe(`blocks nest more than ${MAX_TEMPLATE_NESTING} deep`);
    expect([error.line, error.column]).toEqual([1, 13 * MAX_TEMPLATE_NESTING + 1]);
    const loops = '{% for i in (1..1) %}'.repeat(500) + '{% endfor %}'.repeat(500);
    expect(templateError(() => parseAgentTemplate('system_prompt', loops)).reason).toBe(`blocks nest more than ${MAX_TEMPLATE_NESTING} deep`);
    const inLiquidTag = `{% liquid\n${'if true\n'.repeat(MAX_TEMPLATE_NESTING + 1)}echo 1\n${'endif\n'.repeat(MAX_TEMPLATE_NESTING + 1)}%}`;
    expect(templateError(() => parseAgentTemplate('system_prompt', inLiquidTag)).located).toBe(`line ${MAX_TEMPLATE_NESTING + 2}, column 1: blocks nest more than ${MAX_TEMPLATE_NESTING} deep`);
  });

  it('refuses a template longer than the limit without parsing it', () => {
    const error = templateError(() => parseAgentTemplate('preamble.chat', 'x'.repeat(MAX_TEMPLATE_LENGTH + 1)));
    expect(error.message).toBe(`Template error in preamble.chat: the template is ${MAX_TEMPLATE_LENGTH + 1} characters long, more than the ${MAX_TEMPLATE_LENGTH} allowed`);
  });

  it('applies its limits to each template alone: long templates in a row all parse and render', () => {
    const long = '{{ params.topic }}'.repeat(1500);
    for (let round = 0; round < 5; round += 1) expect(render(long)).toHaveLength('zod'.length * 1500);
  });

  it('renders the data it is given and nothing of the host', () => {
    expect(render('{{ params | json }}')).toBe('{"topic":"zod","depth":"thorough","count":3,"verbose":false,"optional":null}');
    for (const name of ['process', 'global', 'globalThis', 'require', 'module', 'Function']) {
      expect(templateError(() => render(`{{ ${name} }}`)).reason).toBe(`undefined variable: ${name}`);
    }
  });
});
