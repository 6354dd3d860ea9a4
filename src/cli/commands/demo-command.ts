import type { Command } from 'commander';
import type { ForgeRuntime } from '../../runtime/index.js';
import { EXIT, reportError } from '../command-errors.js';

const DEFAULT_DEMO_TASK = 'How do Forge skills make a repeated task cheaper?';

function joinList(existing: string | undefined, added: string): string {
  return existing === undefined || existing.trim() === '' ? added : `${existing},${added}`;
}

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('A complete agent run on local data with no key or service: search → read → answer, logged and stored like any run.')
    .argument('[task...]', 'the question to ask the demo site', [])
    .option('-m, --model <slug>', 'use a real model instead of the scripted demo model')
    .option('--json', 'print only the final result as JSON')
    .option('--no-tui', 'print a plain line per event instead of the live view')
    .addHelpText(
      'after',
      `
The demo starts a small local site (docs, a blog and a SearXNG-format search engine on 127.0.0.1),
lets the SSRF guard through to exactly those hosts, and runs the real loop, dispatch, tools, run log
and store. Without --model the agent is a scripted model that searches, reads the top result and
answers from it; its token counts are estimates and it costs nothing.`,
    )
    .action(async (words: string[], options: { model?: string; json?: boolean; tui: boolean }) => {
      const json = options.json === true;
      // Loaded on use, so `forge --help` and other commands start fast.
      const { createScriptedModel, demoReply, startDemoSite } = await import('../../demo/index.js');
      const { openRuntime, runTask } = await import('../../runtime/index.js');
      const { attachRunView } = await import('../run-view.js');
      const site = await startDemoSite();
      let runtime: ForgeRuntime | undefined;
      try {
        runtime = await openRuntime({
          ...process.env,
          FORGE_ALLOW_HOSTS: joinList(process.env['FORGE_ALLOW_HOSTS'], site.allowHosts),
          FORGE_RESOLVE: joinList(process.env['FORGE_RESOLVE'], site.resolve),
          FORGE_SEARCH: 'searxng',
          FORGE_SEARXNG_URL: site.searchUrl,
        });
        const view = await attachRunView(runtime.bus, { json, tui: options.tui });
        let result;
        try {
          result = await runTask(runtime, {
            task: words.length > 0 ? words.join(' ') : DEFAULT_DEMO_TASK,
            model: options.model ?? { slug: 'demo:scripted', provider: 'demo', model: createScriptedModel('scripted', demoReply) },
          });
        } finally {
          await view.stop();
        }
        if (json) {
          process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        } else {
          process.stdout.write(`\n${result.answer ?? '(no answer)'}\n\n`);
          process.stdout.write(
            `${result.llm_calls} model calls · ${result.tokens.input} in / ${result.tokens.output} out tokens · ${result.steps.length} tool calls · cost ${result.cost_usd === null ? 'n/a (scripted model)' : `$${result.cost_usd.toFixed(6)}`}\n` +
              `run log: ${result.log_file}\n` +
              `next: forge stats ${result.log_file}   ·   forge replay ${result.log_file}   ·   forge run "<your task>"\n`,
          );
        }
        process.exitCode = result.status === 'completed' ? EXIT.ok : EXIT.failed;
      } catch (error) {
        process.exitCode = reportError(error, json);
      } finally {
        await runtime?.close();
        await site.close();
      }
    });
}
