import { describe, expect, it } from 'vitest';
import { TOOL_NAME_PATTERN } from '../../core/index.js';
import { mcpToolName } from './mcp-tool-name.js';

describe('mcpToolName', () => {
  it('uses mcp__{server}__{tool} whenever that is a valid registry name', () => {
    expect(mcpToolName('docs', 'search')).toBe('mcp__docs__search');
    expect(mcpToolName('github-issues', 'list_issues')).toBe('mcp__github-issues__list_issues');
  });

  it('shortens long names to exactly 64 characters, deterministically, with a hash of the full names', () => {
    const tool = `${'summarize_the_'.repeat(6)}document`;

    const short = mcpToolName('research', tool);

    expect(short).toHaveLength(64);
    expect(short).toMatch(TOOL_NAME_PATTERN);
    expect(short).toMatch(/^mcp__research__summarize_the_summarize_the_[a-z_]*-[0-9a-f]{10}$/);
    expect(mcpToolName('research', tool)).toBe(short);
  });

  it('keeps names apart that share their first 64 characters, or differ only in characters it replaces', () => {
    const stem = 'x'.repeat(70);
    const names = [mcpToolName('s', `${stem}-one`), mcpToolName('s', `${stem}-two`), mcpToolName('s', 'files.read'), mcpToolName('s', 'files_read'), mcpToolName('t', 'files.read')];

    expect(new Set(names).size).toBe(names.length);
    expect(names[3]).toBe('mcp__s__files_read');
    expect(names[2]).toMatch(/^mcp__s__files_read-[0-9a-f]{10}$/);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
  });
});
