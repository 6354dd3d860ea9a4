import type { AnyTool, GuardedFetch } from '../core/index.js';
import { createFileTools } from './files/index.js';
import { createGitTools } from './git/index.js';
import type { OptionalToolGroup } from './tool-groups.js';
import { createShellTools } from './shell/index.js';

/** What the optional tools are made with. */
export interface OptionalToolOptions {
  /** The installation's workspace folder (a run's `context.workspace` overrides it). */
  readonly workspace: string;
  /** The SSRF-guarded fetch, for tools that reach the network (the browser routes every request through it). */
  readonly fetch: GuardedFetch;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const factories: Record<OptionalToolGroup, (options: OptionalToolOptions) => AnyTool[]> = {
  files: createFileTools,
  git: createGitTools,
  shell: createShellTools,
  browser: () => [],
};

/** The tools of the groups enabled (FORGE_ENABLE_TOOLS), in the groups' order. */
export function createOptionalTools(groups: readonly OptionalToolGroup[], options: OptionalToolOptions): AnyTool[] {
  return groups.flatMap((group) => factories[group](options));
}
