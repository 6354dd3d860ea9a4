import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR, type Store } from '../../core/index.js';
import { openStore } from '../../adapters/store/index.js';
import { createSkillToolSource } from './skill-tool-source.js';

const skill = (description: string) => ({
  format: 'forge-skill',
  version: 1,
  id: 'skill-notes',
  name: 'notes',
  description,
  task_template: 'Notes on {{topic}}',
  variables_schema: { type: 'object', properties: { topic: { type: 'string', description: 'What about.', examples: ['tides'] } }, required: ['topic'], additionalProperties: false },
  steps: [{ tool: 'lookup', arguments: [{ path: 'topic', binding: { kind: 'variable', name: 'topic' } }] }],
  tools: [],
  provenance: { run_id: 'r', model: 'm', task: 'Notes on tides', recorded_at: '2026-01-01T00:00:00.000Z' },
  output_contract: { steps: [{ type: 'object', keys: [] }], final_non_empty: true },
  recording: { inputs: { topic: 'tides' }, steps: [] },
});

describe('skills published over MCP', () => {
  let store: Store | undefined;

  afterEach(async () => {
    await store?.close();
  });

  it('publishes the version a reference names (name@n) as well as the current one', async () => {
    store = await openStore({ url: ':memory:' });
    await store.skills.save({ id: 'skill-notes', name: 'notes', description: 'v1', document: skill('First version.'), note: 'saved' });
    await store.skills.save({ id: 'skill-notes', name: 'notes', description: 'v2', document: skill('Second version.'), note: 'edited' });
    const source = (published: string[]) => createSkillToolSource({ skills: store!.skills, published, replay: () => Promise.reject(new Error('listing replays nothing')) });

    expect((await source(['notes@1']).list(OPERATOR)).map((tool) => [tool.name, tool.description])).toEqual([['skill_notes', 'First version.']]);
    expect((await source(['notes']).list(OPERATOR)).map((tool) => tool.description)).toEqual(['Second version.']);
    expect(await source(['notes@7']).list(OPERATOR)).toEqual([]);
  });
});
