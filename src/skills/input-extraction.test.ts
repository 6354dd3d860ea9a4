import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createScriptedUtilityModel } from '../../test/fixtures/tool-context.js';
import { parseSkillDocument } from './document/parse-skill-document.js';
import type { SkillDocument } from './document/skill-document.js';
import { extractSkillInputs } from './input-extraction.js';
import { matchSkillForTask } from './skill-matching.js';

const exchange = parseSkillDocument(JSON.parse(readFileSync(new URL('./document/corpus/v2-current.json', import.meta.url), 'utf8')));

/** A write-only skill: an order id and an enum the request may or may not say. */
const cancel: SkillDocument = {
  ...exchange,
  name: 'cancel-order',
  task_template: 'Cancel my order {{order_id}} because I no longer need it.',
  variables_schema: {
    type: 'object',
    properties: {
      order_id: { type: 'string', description: 'The order_id step 0 sends.', examples: ['#W2890441'] },
      reason: { type: 'string', description: 'The reason step 0 sends.', enum: ['no longer needed', 'ordered by mistake'], examples: ['no longer needed'] },
    },
    required: ['order_id', 'reason'],
    additionalProperties: false,
  },
  variable_origins: { order_id: { kind: 'argument', step: 0, path: 'order_id', from: 'request' }, reason: { kind: 'argument', step: 0, path: 'reason', from: 'call' } },
  selections: [],
  steps: [{ tool: 'cancel_pending_order', side_effect: 'write', arguments: [{ path: 'order_id', binding: { kind: 'input', name: 'order_id' } }, { path: 'reason', binding: { kind: 'input', name: 'reason' } }], preconditions: [] }],
  recordings: [{ run_id: 'run-c', task: 'Cancel my order #W2890441 because I no longer need it.', inputs: { order_id: '#W2890441', reason: 'no longer needed' }, steps: [] }],
};

describe('reading a skill\'s inputs from a free-text task', () => {
  it('reads an id by its shape and an enum value the request names, with no model', async () => {
    const extraction = await extractSkillInputs(cancel, 'Hi, please cancel #W7654321, I ordered by mistake.');
    expect(extraction).toMatchObject({ inputs: { order_id: '#W7654321', reason: 'ordered by mistake' }, sources: { order_id: 'shape', reason: 'enum' }, missing: [], llm_calls: 0, method: 'deterministically' });
  });

  it('does not guess: two ids of one shape, or both enum values named, leave the input missing', async () => {
    const extraction = await extractSkillInputs(cancel, 'Cancel #W7654321 or #W1111111, no longer needed or ordered by mistake, I cannot decide.');
    expect(extraction.missing).toEqual(['order_id', 'reason']);
    expect(extraction.inputs).toEqual({});
  });

  it('reads a value after the words that preceded it when recorded, where its shape alone is ambiguous', async () => {
    const recorded = { ...exchange, recordings: [{ ...exchange.recordings[0]!, task: 'My zip code is 80217. Exchange my desk lamp for one in black.' }] };
    const extraction = await extractSkillInputs(recorded, 'Order 55512 was wrong; my zip code is 19122. Exchange the office chair.');
    expect(extraction.inputs).toMatchObject({ zip: '19122' });
    expect(extraction.sources['zip']).toBe('anchor');
  });

  it('asks one small structured model call for the rest, and keeps only answers the task really says', async () => {
    const model = createScriptedUtilityModel(JSON.stringify({ first_name: 'Yusuf', last_name: 'Rossi', item_name: 'Office Chair', color: 'blue', item_ids: ['1234567890'], reason: 'no longer needed' }));
    const extraction = await extractSkillInputs(exchange, 'Hello, I am Yusuf Rossi in 19122; exchange my Office Chair for one in blue, I no longer need the old one.', { model });

    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]).toMatchObject({ purpose: 'skill-inputs' });
    expect(extraction).toMatchObject({ llm_calls: 1, method: 'with one model call' });
    expect(extraction.inputs).toMatchObject({ first_name: 'Yusuf', last_name: 'Rossi', item_name: 'Office Chair', color: 'blue', zip: '19122', reason: 'no longer needed' });
    // The item id appears nowhere in the task: a model's invention is dropped, and the input stays missing.
    expect(extraction.inputs['item_ids']).toBeUndefined();
    expect(extraction.missing).toEqual(['item_ids']);
  });

  it('drops a model answer that is not JSON, or names a value outside an enum', async () => {
    expect((await extractSkillInputs(cancel, 'Cancel it, it was a mistake.', { model: createScriptedUtilityModel('the order is #W1') })).missing).toEqual(['order_id', 'reason']);
    expect((await extractSkillInputs(cancel, 'Cancel it, it was a mistake.', { model: createScriptedUtilityModel('{"reason": "it was a mistake"}') })).missing).toEqual(['order_id', 'reason']);
  });
});

describe('choosing the skill for a free-text task', () => {
  const refund: SkillDocument = { ...cancel, name: 'return-items', recordings: [{ ...cancel.recordings[0]!, task: 'I want to return the headphones and the keyboard from my delivered order and get the refund on my gift card.' }], task_template: 'I want to return the headphones and the keyboard from my delivered order and get the refund on my gift card.' };

  it('matches the skill whose recorded task says what this one says, and says how alike they read', () => {
    const match = matchSkillForTask('Please cancel my order #W1234567 because I no longer need it', [cancel, refund]);
    expect(match).toMatchObject({ matched: true, inputs: { order_id: '#w1234567' } });

    const loose = matchSkillForTask('I would like to return the keyboard and the headphones of a delivered order, refund to my gift card please.', [cancel, refund]);
    expect(loose).toMatchObject({ matched: true, reason: expect.stringContaining('reads like the recorded task of "return-items"') });
    expect(loose.matched && loose.skill.name).toBe('return-items');
  });

  it('misses rather than guesses when no recorded task is close enough', () => {
    expect(matchSkillForTask('What is the weather in Paris tomorrow?', [cancel, refund])).toMatchObject({ matched: false, reason: expect.stringContaining('no stored skill reads like this task') });
    expect(matchSkillForTask('anything', [])).toEqual({ matched: false, reason: 'no skills are stored' });
  });
});
