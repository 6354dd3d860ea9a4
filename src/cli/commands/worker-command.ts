import type { Command } from 'commander';
import { ConfigurationError } from '../../core/index.js';
import { EXIT, parsePort, parsePositiveInteger } from '../command-errors.js';
import { describeFiring } from '../schedule-line.js';
import { printError, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

interface WorkerOptions {
  concurrency?: number;
  healthPort?: number;
}

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('Run queued agent runs in the scaled mode (FORGE_REDIS_URL): take jobs from the queue until SIGTERM.')
    .option('--concurrency <n>', 'runs this worker runs at once (default FORGE_WORKER_CONCURRENCY, else 50)', parsePositiveInteger('--concurrency'))
    .option('--health-port <port>', 'also answer GET /health on 127.0.0.1:<port> (active runs, jobs done), for a container health check (default FORGE_WORKER_HEALTH_PORT, else none)', parsePort('--health-port'))
    .addHelpText(
      'after',
      `
The scaled mode: \`forge serve\` and any number of \`forge worker\` processes share one PostgreSQL store
(FORGE_DATABASE_URL=postgres://…) and one Redis (FORGE_REDIS_URL=redis://…). The server queues each run
it is asked for; a free worker takes it, runs it, and its events reach every server through Redis.
A worker killed without warning leaves its runs to another worker, which goes on from their last
checkpoint (a call that had side effects and was cut off is never run again: the run fails, naming it).

SIGTERM or Ctrl-C drains: no new job is taken, the runs in progress finish, then the worker exits.
A second signal exits at once (its runs are then picked up by another worker).

Examples:
  $ FORGE_DATABASE_URL=postgres://forge@db/forge FORGE_REDIS_URL=redis://:$REDIS_PASSWORD@redis:6379 forge worker --concurrency 100`,
    )
    .action(async (options: WorkerOptions) => {
      await withRuntime(false, async (runtime) => {
        if (runtime.mode !== 'scaled') {
          throw new ConfigurationError('FORGE_REDIS_URL', 'is not set, so there is no queue to take runs from (the embedded mode runs each run in the process that starts it).', 'Set FORGE_REDIS_URL=redis://… and FORGE_DATABASE_URL=postgres://… to the same values as `forge serve`.');
        }
        const concurrency = options.concurrency ?? runtime.config.worker.concurrency;
        const healthPort = options.healthPort ?? runtime.config.worker.healthPort;
        const { startScheduler, startWorker } = await import('../../compose/index.js');
        const { serveWorkerHealth } = await import('../../server/http/index.js');
        const worker = startWorker(runtime, { concurrency, report: (line) => printError(`${line}\n`) });
        // Schedules fire from every worker (and server); each slot fires once, whichever claims it.
        const scheduler = startScheduler(runtime, { report: (firing) => printError(`${describeFiring(firing)}\n`), onError: (error) => printError(`forge worker: schedules: ${error instanceof Error ? error.message : String(error)}\n`) });
        let draining = false;
        const health = healthPort === undefined ? undefined : await serveWorkerHealth({ port: healthPort, status: () => ({ status: draining ? 'draining' : 'ok', concurrency, ...worker.tally() }) });
        const stopped = new Promise<void>((resolve) => {
          const onSignal = () => {
            if (draining) process.exit(EXIT.cancelled);
            draining = true;
            resolve();
          };
          process.on('SIGINT', onSignal);
          process.on('SIGTERM', onSignal);
        });
        printOut(`Forge worker ready: up to ${concurrency} runs at once${health === undefined ? '' : ` · health at ${health.url}`} (SIGTERM or Ctrl-C drains)\n`);
        await stopped;
        printError(`forge worker: draining (${worker.tally().active} runs in progress); a second signal exits now\n`);
        await scheduler.stop();
        await worker.jobs.close();
        await health?.close();
        const { done, failed } = worker.tally();
        printOut(`Forge worker stopped: ${done} jobs done, ${failed} failed\n`);
        return EXIT.ok;
      }, { server: true });
    });
}
