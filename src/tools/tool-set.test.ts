import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolNotFoundError, UnknownToolsError, defineTool, type AnyTool } from '../core/index.js';
import { ToolRegistry } from './registry.js';
import { ToolSet } from './tool-set.js';

function tool(name: string, description = name): AnyTool {
  return defineTool({ name, description, inputSchema: z.object({ q: z.string() }), risk: 'low', sideEffect: 'read', execute: async () => name });
}

function caught(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('ToolSet: what one run may call', () => {
  it('is a snapshot: the catalog registering, replacing or removing tools later never changes it', () => {
    const catalog = new ToolRegistry();
    catalog.register(tool('web_search'));
    catalog.register(tool('read_url'));
    const taken = catalog.snapshot();

    catalog.register(tool('late_tool'));
    catalog.unregister('read_url');
    catalog.unregister('web_search');
    catalog.register(tool('web_search', 'a different web_search'));

    expect(taken.names()).toEqual(['web_search', 'read_url']);
    expect(taken.get('late_tool')).toBeUndefined();
    expect(taken.get('web_search')?.description).toBe('web_search');
    expect(taken.specification('read_url')).toMatchObject({ name: 'read_url', inputSchema: { properties: { q: { type: 'string' } } } });
    expect(catalog.names()).toEqual(['late_tool', 'web_search']);
    expect(catalog.snapshot().names()).toEqual(['late_tool', 'web_search']);
  });

  it('narrows to exact names in catalog order, and names every unknown one with what exists', () => {
    const catalog = new ToolRegistry();
    for (const name of ['web_search', 'read_url', 'http_request']) catalog.register(tool(name));

    expect(catalog.snapshot(['http_request', 'web_search']).names()).toEqual(['web_search', 'http_request']);
    expect(catalog.snapshot([]).names()).toEqual([]);
    // A tool list is exact: aliases a model is forgiven do not select tools.
    const error = caught(() => catalog.snapshot(['web_search', 'webSearch', 'search', 'webSearch']));
    expect(error).toBeInstanceOf(UnknownToolsError);
    expect(error).toMatchObject({ toolNames: ['webSearch', 'search'], availableTools: ['web_search', 'read_url', 'http_request'] });
    expect((error as Error).message).toBe('No tool named "webSearch", "search". Available tools: web_search, read_url, http_request.');
  });

  it('resolves aliases among its own tools only, and lists only its own tools when a name is unknown', () => {
    const catalog = new ToolRegistry();
    for (const name of ['web_search', 'read_url', 'secret_tool']) catalog.register(tool(name));
    const set = catalog.snapshot(['read_url']);

    expect(set.resolve('functions.read_url').name).toBe('read_url');
    expect(set.resolve('browse').name).toBe('read_url');
    for (const name of ['web_search', 'search', 'secret_tool', 'secretTool']) {
      const error = caught(() => set.resolve(name));
      expect(error).toBeInstanceOf(ToolNotFoundError);
      expect(error).toMatchObject({ toolName: name, availableTools: ['read_url'] });
    }
    expect(catalog.resolve('search').name).toBe('web_search');
  });

  it('derives run-private sets without touching the one it came from', () => {
    const base = ToolSet.empty.with([tool('web_search'), tool('read_url')]);
    const extended = base.with([tool('count_links'), tool('read_url', 'replaced')]);

    expect(extended.names()).toEqual(['web_search', 'read_url', 'count_links']);
    expect(extended.get('read_url')?.description).toBe('replaced');
    expect(extended.specification('count_links')?.description).toBe('count_links');
    expect(base.names()).toEqual(['web_search', 'read_url']);
    expect(base.get('read_url')?.description).toBe('read_url');
    expect(base.without(['web_search']).names()).toEqual(['read_url']);
    expect(base.names()).toEqual(['web_search', 'read_url']);
    expect(ToolSet.empty.names()).toEqual([]);
  });

  it('refuses invalid names, and the catalog refuses a name it already has', () => {
    expect(() => ToolSet.empty.with([tool('has space')])).toThrow(/must match/);
    const catalog = new ToolRegistry();
    catalog.register(tool('once'));
    expect(() => catalog.register(tool('once'))).toThrow(/already registered/);
    const taken = catalog.snapshot();
    expect(catalog.unregister('once')).toBe(true);
    expect(catalog.unregister('once')).toBe(false);
    expect(taken.names()).toEqual(['once']);
  });
});
