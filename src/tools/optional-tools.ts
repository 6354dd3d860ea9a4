import { holdsRunResources, isClosableTool, type AnyTool, type GuardedFetch } from '../core/index.js';
import { createBrowserTools } from './browser/index.js';
import { createFileTools } from './files/index.js';
import { createGitTools } from './git/index.js';
import { createShellTools } from './shell/index.js';
import type { OptionalToolGroup } from './tool-groups.js';

/** What the optional tools are made with. */
export interface OptionalToolOptions {
  /** The installation's workspace folder (a run's `context.workspace` overrides it). */
  readonly workspace: string;
  /** FORGE_HOME: kept out of sight of isolated shell commands. */
  readonly home?: string;
  /** The SSRF-guarded fetch, for tools that reach the network (the browser routes every request through it). */
  readonly fetch: GuardedFetch;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** This process serves other people (`forge serve`, `forge worker`), not one person at a terminal; default false. */
  readonly server?: boolean;
}

const factories: Record<OptionalToolGroup, (options: OptionalToolOptions) => AnyTool[]> = {
  files: createFileTools,
  git: createGitTools,
  shell: createShellTools,
  browser: createBrowserTools,
};

/** The tools of the groups enabled (FORGE_ENABLE_TOOLS), in the groups' order. */
export function createOptionalTools(groups: readonly OptionalToolGroup[], options: OptionalToolOptions): AnyTool[] {
  return groups.flatMap((group) => factories[group](options));
}

/** Releases what the optional tools hold (the browser process); harmless when called twice. */
export async function closeOptionalTools(tools: readonly AnyTool[]): Promise<void> {
  await Promise.all(tools.flatMap((tool) => (isClosableTool(tool) ? [tool.close()] : [])));
}

/** Releases what the optional tools hold for a run that ended (its browser context); never throws. */
export async function releaseRunOfTools(tools: readonly AnyTool[], runId: string): Promise<void> {
  await Promise.all(tools.flatMap((tool) => (holdsRunResources(tool) ? [tool.releaseRun(runId).catch(() => undefined)] : [])));
}
