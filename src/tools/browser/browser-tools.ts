import type { AnyTool } from '../../core/index.js';
import type { BrowserPool } from './browser-pool.js';
import { createClickTool } from './click-tool.js';
import type { ClosableTool } from '../../core/index.js';
import { createExtractTool } from './extract-tool.js';
import { createOpenTool } from './open-tool.js';
import { createSnapshotTool } from './snapshot-tool.js';
import { createTypeTool } from './type-tool.js';

/** The five browser tools over `pool`; closing any of them closes the pool. */
export function browserToolsOver(pool: BrowserPool): (AnyTool & ClosableTool)[] {
  const close = () => pool.close();
  return [createOpenTool(pool), createSnapshotTool(pool), createClickTool(pool), createTypeTool(pool), createExtractTool(pool)].map((tool) => Object.assign(tool, { close }));
}
