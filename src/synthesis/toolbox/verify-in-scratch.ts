import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { GuardedFetch } from '../../core/index.js';
import type { SandboxLimits } from '../sandbox/index.js';
import type { Toolbox } from './toolbox.js';
import { verifyTool, type ToolVerification } from './verify-tool.js';

export interface ScratchVerificationOptions {
  readonly toolSource: string;
  readonly testSource: string;
  /** Lent to a tool that declares `fetch` while its test runs. */
  readonly fetch: GuardedFetch;
  readonly limits?: Partial<SandboxLimits>;
}

/**
 * The verification gate run outside any tool's own files: a tool that declares `fs` gets an empty scratch
 * folder in the toolbox for its test, removed afterwards, so verifying never touches what a promoted
 * tool has written.
 */
export async function verifyInScratch(toolbox: Toolbox, options: ScratchVerificationOptions): Promise<ToolVerification> {
  await mkdir(toolbox.folder, { recursive: true, mode: 0o700 });
  const scratch = await mkdtemp(path.join(toolbox.folder, 'verify-'));
  try {
    return await verifyTool({
      toolSource: options.toolSource,
      testSource: options.testSource,
      hostCapabilities: { fetch: options.fetch, jailRoot: scratch },
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
