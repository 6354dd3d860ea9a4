/**
 * A `forge worker` process for the scaled-mode tests and bench: `node --import tsx test/support/scale-worker.ts <concurrency>`,
 * configured by its environment (FORGE_DATABASE_URL, FORGE_REDIS_URL, FORGE_HOME, model and hosts) like
 * the CLI's worker, with one extra tool, `record_effect`, a side effect that lands on a counting server
 * (`EFFECT_URL/<run id>`). It runs `startWorker`, the service `forge worker` runs, and prints `ready`,
 * then a line per job; SIGTERM drains it.
 */
import { openRuntime, startWorker } from '../../src/compose/index.js';
import { effectTool } from './scale-effect-tool.js';

const concurrency = Number(process.argv[2] ?? 10);
const runtime = await openRuntime(process.env, process.cwd(), { mcp: { startupWaitMs: 0 } });
runtime.registry.register(effectTool(process.env['EFFECT_URL'] ?? ''));
const worker = startWorker(runtime, { concurrency, report: (line) => process.stdout.write(`${line}\n`) });
process.stdout.write(`ready ${process.pid}\n`);
await new Promise<void>((resolve) => process.once('SIGTERM', () => resolve()));
await worker.jobs.close();
await runtime.close();
