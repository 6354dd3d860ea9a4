import type { AgentDefinitionInput } from './agent-definition.js';

/**
 * The agents `forge init` installs, as plain definitions (the same schema as any file): a researcher
 * with the web tools, a release-notes summarizer that answers in structured fields, and a toolsmith that
 * runs in converge mode and writes the tools it lacks through the verification gate.
 */
export const STARTER_AGENTS: readonly AgentDefinitionInput[] = [
  {
    version: 1,
    name: 'Researcher',
    slug: 'researcher',
    description: 'Searches the web, reads the sources and answers with what they say, citing them.',
    icon: '🔎',
    tags: ['research', 'web'],
    tools: { web_search: 'allowed', read_url: 'allowed', http_request: 'approval' },
    parameters: [
      { name: 'topic', type: 'text', required: true, description: 'What to research.' },
      { name: 'depth', type: 'enum', values: ['quick', 'thorough'], default: 'quick', description: 'quick: one or two sources; thorough: several, compared.' },
    ],
    system_prompt: [
      'Research {{ params.topic }}.',
      '{% if params.depth == "thorough" %}Read at least four independent sources and say where they disagree.{% else %}Read one or two good sources.{% endif %}',
      'Cite every claim with the URL it came from. Say plainly when the sources do not answer the question.',
      'Tools you have:{% for tool in system.tools %}',
      '- {{ tool.name }}: {{ tool.description }}{% endfor %}',
    ].join('\n'),
  },
  {
    version: 1,
    name: 'Release notes summarizer',
    slug: 'release-notes',
    description: "Finds a project's release notes and summarizes what changed, what breaks and what to do.",
    icon: '📰',
    tags: ['releases', 'summaries'],
    tools: { web_search: 'allowed', read_url: 'allowed' },
    parameters: [
      { name: 'project', type: 'text', required: true, description: 'The project, e.g. Node.js or kestrel.' },
      { name: 'release', type: 'text', required: false, description: 'The version; absent: the latest.' },
    ],
    outputs: [
      { name: 'version', type: 'text', description: 'The version summarized.' },
      { name: 'summary', type: 'text', description: 'What changed, in a few sentences.' },
      { name: 'breaking', type: 'json', description: 'The breaking changes, one string each (empty when none).', schema: { type: 'array', items: { type: 'string' } } },
      { name: 'source', type: 'text', description: 'The URL of the release notes read.' },
    ],
    system_prompt: [
      'Find the official release notes of {{ params.project }}{% if params.release %} {{ params.release }}{% else %} (its latest release){% endif %} and read them.',
      'Prefer the project\'s own site or repository over news articles. Summarize only what the notes say.',
    ].join('\n'),
  },
  {
    version: 1,
    name: 'Toolsmith',
    slug: 'toolsmith',
    description: 'Builds what it lacks: plans, writes missing tools (each verified by an independent test in the sandbox) and uses them.',
    icon: '🛠',
    tags: ['tools', 'converge'],
    mode: 'converge',
    toolbox: true,
    tools: { web_search: 'allowed', read_url: 'allowed', http_request: 'approval' },
    parameters: [{ name: 'goal', type: 'text', required: true, description: 'What the tools should achieve.' }],
    system_prompt: [
      'Goal: {{ params.goal }}.',
      'Plan first. Use the tools you have; when one is missing, request it with a precise description of its input and output, then use it.',
      'Stop when the goal is met or nothing more can be done, and say which.',
    ].join('\n'),
  },
];
