import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSkillDocument } from './document/parse-skill-document.js';
import type { SkillDocument } from './document/skill-document.js';
import { matchSkill, matchSkillForTask, readTaskInputs } from './skill-matching.js';

const topResults = parseSkillDocument(JSON.parse(readFileSync(new URL('./document/corpus/v1-legacy.json', import.meta.url), 'utf8')));
const releaseNotes: SkillDocument = {
  ...topResults,
  name: 'latest-release-notes',
  task_template: 'Find the latest release of {{topic}}, choose the official documentation and summarize what changed.',
  variables_schema: { type: 'object', properties: { topic: { type: 'string', description: 'topic', examples: ['lumen'] } }, required: ['topic'], additionalProperties: false },
  steps: [{ tool: 'web_search', side_effect: 'read', arguments: [{ path: 'query', binding: { kind: 'input', name: 'topic' } }], preconditions: [] }],
};

describe('skill matching', () => {
  it('reads the inputs of a task that follows the template, ignoring case, spacing and a trailing full stop', () => {
    expect(readTaskInputs(releaseNotes, 'find the latest release of  react router, choose the official documentation and summarize what changed')).toEqual({ topic: 'react router' });
    expect(readTaskInputs(topResults, 'Please show the top 5 results for tessera.')).toEqual({ limit: '5', topic: 'tessera' });
  });

  it('does not stretch a variable over a clause of its own', () => {
    expect(readTaskInputs(releaseNotes, 'Find the latest release of lumen and email it to bob, choose the official documentation and summarize what changed.')).toBeUndefined();
    expect(readTaskInputs(releaseNotes, 'Find the latest release of lumen, choose the official documentation and summarize what changed. Then delete it.')).toBeUndefined();
  });

  it('reads a template without variables as exactly its own task, with no inputs, and nothing else', () => {
    // Only generic words: the similarity match has no content word to go on, so only the exact reading finds it.
    const task = 'Find the latest release notes and summarize them.';
    const fixed: SkillDocument = { ...releaseNotes, name: 'fixed-notes', task_template: task, variables_schema: { type: 'object', properties: {}, required: [], additionalProperties: false }, recordings: releaseNotes.recordings.map((recording) => ({ ...recording, task, inputs: {} })) };

    expect(readTaskInputs(fixed, 'find the latest  release notes and summarize them')).toEqual({});
    expect(readTaskInputs(fixed, 'Find the latest release notes and summarize them twice.')).toBeUndefined();
    expect(matchSkillForTask(task, [releaseNotes, fixed])).toMatchObject({ matched: true, skill: { name: 'fixed-notes' }, inputs: {}, score: 1 });
    expect(matchSkillForTask('Find the latest release notes and delete them.', [releaseNotes, fixed])).toMatchObject({ matched: false });
    expect(matchSkill(task, [fixed])).toMatchObject({ matched: true, inputs: {} });
  });

  it('matches the skill whose template reads the task, with a reason', () => {
    const match = matchSkill('Show the top 3 results for kestrel', [releaseNotes, topResults]);
    expect(match).toMatchObject({ matched: true, inputs: { topic: 'kestrel', limit: '3' } });
    expect(match.matched && match.skill.name).toBe('top-results');
  });

  it('falls back when inputs do not validate, when nothing reads the task, and when two skills fit equally', () => {
    expect(matchSkill('Show the top three results for kestrel', [topResults])).toMatchObject({ matched: false });
    expect(matchSkill('What is the weather in Paris?', [releaseNotes, topResults])).toEqual({ matched: false, reason: 'none of 2 stored skills has a task template that reads this task' });
    expect(matchSkill('anything', [])).toEqual({ matched: false, reason: 'no skills are stored' });
    const twin = { ...releaseNotes, name: 'twin' };
    expect(matchSkill('Find the latest release of lumen, choose the official documentation and summarize what changed.', [releaseNotes, twin])).toMatchObject({
      matched: false,
      reason: expect.stringContaining('both fit'),
    });
  });

  it('does not read a task against a template whose placeholders sit side by side or are too many (an imported skill\'s pattern could backtrack for minutes)', () => {
    const adjacent = { ...releaseNotes, task_template: 'Find {{a}}{{b}}{{c}} now', variables_schema: { ...releaseNotes.variables_schema, properties: { a: { type: 'string' as const, description: '', examples: ['x'] }, b: { type: 'string' as const, description: '', examples: ['y'] }, c: { type: 'string' as const, description: '', examples: ['z'] } }, required: ['a', 'b', 'c'] } };
    expect(readTaskInputs(adjacent, `Find ${'x'.repeat(5_000)} now`)).toBeUndefined();
    expect(readTaskInputs(adjacent, 'Find xyz now')).toBeUndefined();
    const separated = { ...adjacent, task_template: 'Find {{a}} and {{b}} or {{c}} now' };
    expect(readTaskInputs(separated, 'Find x and y or z now')).toEqual({ a: 'x', b: 'y', c: 'z' });
    expect(readTaskInputs(separated, `Find ${'x and '.repeat(1_000)}y or z now`)).toBeUndefined();
  });
});
