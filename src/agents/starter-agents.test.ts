import { describe, expect, it } from 'vitest';
import { parseAgentDefinition } from './agent-definition.js';
import { renderAgentPrompt } from './agent-prompt.js';
import { exportAgentYaml, importAgentYaml } from './agent-yaml.js';
import { STARTER_AGENTS } from './starter-agents.js';

describe('the starter agents', () => {
  const environment = { context: 'background' as const, tools: [{ name: 'web_search', description: 'Search the web.' }], skills: [], agents: [], now: new Date('2026-12-03T10:00:00Z') };

  it('are valid definitions that survive a YAML round trip', () => {
    expect(STARTER_AGENTS.map((starter) => starter.slug)).toEqual(['researcher', 'release-notes', 'toolsmith']);
    for (const starter of STARTER_AGENTS) {
      const definition = parseAgentDefinition(starter);
      expect(importAgentYaml(exportAgentYaml(definition))).toEqual(definition);
    }
  });

  it('render their prompts with their parameters', () => {
    const [researcher, releaseNotes, toolsmith] = STARTER_AGENTS.map(parseAgentDefinition) as [ReturnType<typeof parseAgentDefinition>, ReturnType<typeof parseAgentDefinition>, ReturnType<typeof parseAgentDefinition>];
    const research = renderAgentPrompt(researcher, { ...environment, params: { topic: 'tide tables', depth: 'thorough' } });
    expect(research).toContain('Research tide tables.');
    expect(research).toContain('at least four independent sources');
    expect(research).toContain('- web_search: Search the web.');
    expect(renderAgentPrompt(releaseNotes, { ...environment, params: { project: 'kestrel' } })).toContain('release notes of kestrel (its latest release)');
    expect(renderAgentPrompt(releaseNotes, { ...environment, context: 'automation', params: { project: 'kestrel', release: '2.0' } })).toMatch(/kestrel 2\.0[\s\S]*breaking/);
    expect(toolsmith.mode).toBe('converge');
    expect(renderAgentPrompt(toolsmith, { ...environment, params: { goal: 'count links' } })).toContain('Goal: count links.');
  });
});
