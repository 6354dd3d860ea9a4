import type { AnyTool } from '../../core/index.js';
import type { BrowserPool } from './browser-pool.js';
import { createClickTool } from './click-tool.js';
import type { ClosableTool, RunResourceHolder } from '../../core/index.js';
import { createExtractTool } from './extract-tool.js';
import { createOpenTool } from './open-tool.js';
import { createSnapshotTool } from './snapshot-tool.js';
import { createTypeTool } from './type-tool.js';

/** The five browser tools over `pool`; closing any of them closes the pool, and releasing a run through any of them closes its context. */
export function browserToolsOver(pool: BrowserPool): (AnyTool & ClosableTool & RunResourceHolder)[] {
  const close = () => pool.close();
  const releaseRun = (runId: string) => pool.releaseRun(runId);
  return [createOpenTool(pool), createSnapshotTool(pool), createClickTool(pool), createTypeTool(pool), createExtractTool(pool)].map((tool) => Object.assign(tool, { close, releaseRun }));
}
