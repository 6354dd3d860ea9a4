/**
 * A process holding a burst of concurrent agent runs on the real runtime (file store, run logs), for the
 * kill -9 test: `node --import tsx test/support/run-burst.ts <FORGE_HOME> <runs>`. Run i is asked
 * `burst i`; the timer model answers its calls after 20 + 15·i ms, so runs finish one after another
 * while the later ones are still going. Prints `<status> <run id>` for each run whose result has
 * settled (its run log and its store rows written).
 */
import { openRuntime, runTask } from '../../src/compose/index.js';
import { TIMER_MODEL_CALLS, noopTools, timerModel } from './timer-model.js';

const [home, countText] = process.argv.slice(2);
if (home === undefined || countText === undefined) throw new Error('usage: run-burst.ts <FORGE_HOME> <runs>');

function runIndexOf(prompt: Parameters<Parameters<typeof timerModel>[0]>[0]): number {
  for (const message of prompt) {
    if (message.role !== 'user') continue;
    for (const part of message.content) if (part.type === 'text') return Number(/^burst (\d+)$/.exec(part.text)?.[1] ?? 0);
  }
  return 0;
}

const runtime = await openRuntime({ FORGE_HOME: home }, home, { mcp: { startupWaitMs: 0 } });
for (const tool of noopTools()) runtime.registry.register(tool);
const model = { slug: 'test:timer', provider: 'test', model: timerModel((prompt) => 20 + 15 * runIndexOf(prompt)) };
const runs = Array.from({ length: Number(countText) }, async (_, index) => {
  const result = await runTask(runtime, { task: `burst ${index}`, model, maxIterations: TIMER_MODEL_CALLS + 1 });
  process.stdout.write(`${result.status} ${result.run_id}\n`);
});
await Promise.all(runs);
await runtime.close();
