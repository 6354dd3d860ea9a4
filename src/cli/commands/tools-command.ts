import type { Command } from 'commander';
import type { ToolDescription } from '../../compose/index.js';
import { readableOutput } from '../../security/index.js';
import { EXIT, parseJsonOption } from '../command-errors.js';
import { printError, printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';
import { formatEventLine, formatQuantity } from '../event-line/index.js';

function toolText(described: ToolDescription, withSource: boolean): string {
  const lines = [
    described.registered ? `${described.name}  (${described.side_effect}, ${described.risk} risk)` : `${described.name}  (not registered: ${described.toolbox!.status})`,
    '',
    described.description,
  ];
  const entry = described.toolbox;
  if (entry !== undefined) {
    lines.push(
      '',
      `toolbox: ${entry.status}, ${entry.origin}, ${formatQuantity(entry.revisions, 'revision')}, ${formatQuantity(entry.uses, 'use')}, capabilities ${entry.capabilities.join(', ') || 'none'}` +
        ` (used in its test: ${entry.capabilities_used.join(', ') || 'none'}), cost ${entry.cost_usd === null ? 'unknown' : `$${entry.cost_usd.toFixed(4)}`}`,
    );
    if (entry.failures.length > 0) lines.push('last verification failed:', ...entry.failures.map((failure) => `  - ${failure}`));
  }
  lines.push('', 'input schema:', JSON.stringify(described.input_schema, null, 2));
  if (entry !== undefined) {
    if (withSource) lines.push('', '// tool module', entry.source, '', '// test module', entry.test);
    else lines.push('', 'Add --source to print the tool module and its test.');
  }
  return `${lines.join('\n')}\n`;
}

async function readInputFile(readFile: (file: string, encoding: 'utf8') => Promise<string>, file: string, option: string, hint: string): Promise<string> {
  const { ConfigurationError, describeError } = await import('../../core/index.js');
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigurationError(option, `cannot read ${file}: ${describeError(error).message}`, hint);
  }
}

const moduleFileHint = 'Pass the path of a JavaScript module file.';

export function registerToolsCommand(program: Command): void {
  const tools = program.command('tools').description('List, inspect and call the tools in the registry (built-in, MCP, synthesized); add, test, remove, export and import toolbox tools.');

  tools
    .command('list')
    .description('List every registered tool.')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        // Failed and unfinished tools are not in the registry, but stay listed: the graveyard is part of the story.
        const { tools: rows, toolbox, unreadable } = await runtime.tools.list();
        if (options.json === true) {
          printJson({ tools: rows, toolbox, unreadable });
        } else {
          const width = Math.max(...rows.map((row) => row.name.length), ...toolbox.map((entry) => entry.name.length), ...unreadable.map((entry) => entry.name.length));
          for (const row of rows) printOut(`${row.name.padEnd(width)}  ${row.side_effect.padEnd(8)} ${row.risk.padEnd(6)} ${row.description.split('\n')[0]}\n`);
          if (toolbox.length > 0) printOut('\ntoolbox:\n');
          for (const entry of toolbox) {
            printOut(`${entry.name.padEnd(width)}  ${entry.status.padEnd(8)} ${entry.origin}, ${formatQuantity(entry.revisions, 'revision')}, ${formatQuantity(entry.uses, 'use')}${entry.failures.length === 0 ? '' : ` — ${entry.failures[0]}`}\n`);
          }
          if (unreadable.length > 0 && toolbox.length === 0) printOut('\ntoolbox:\n');
          for (const entry of unreadable) printOut(`${entry.name.padEnd(width)}  unreadable: ${entry.issues.join('; ')}\n${' '.repeat(width + 2)}${entry.hint}\n`);
        }
        return EXIT.ok;
      });
    });

  tools
    .command('show')
    .description('Show one tool: description, risk, side effects, the JSON Schema of its input, and for toolbox tools (failed ones too) their status, failures and source.')
    .argument('<name>', 'tool name')
    .option('--source', 'also print the tool module and its test (toolbox tools)')
    .option('--json', 'print JSON (toolbox tools include their whole toolbox entry, source and test)')
    .action(async (name: string, options: { json?: boolean; source?: boolean }) => {
      await withRuntime(options.json === true, async (runtime) => {
        const described = await runtime.tools.describe(name);
        if (options.json === true) printJson(described);
        else printOut(toolText(described, options.source === true));
        return EXIT.ok;
      });
    });

  tools
    .command('add')
    .description('Add a hand-written tool module through the verification gate: its test must pass in the sandbox and fail against every stub.')
    .argument('<tool.js>', 'the tool module (exports meta and a default async run(input, forge))')
    .requiredOption('--test <test.js>', 'the test module (default export async function test(tool, assert))')
    .option('--json', 'print the toolbox entry as JSON')
    .action(async (toolFile: string, options: { test: string; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { readFile } = await import('node:fs/promises');
        const [toolSource, testSource] = await Promise.all([readInputFile(readFile, toolFile, '<tool.js>', moduleFileHint), readInputFile(readFile, options.test, '--test', moduleFileHint)]);
        if (!json) printError(`verifying ${toolFile} in the sandbox: its test against the tool, then against every stub…\n`);
        const entry = await runtime.tools.add({ toolSource, testSource });
        if (json) {
          printJson({ name: entry.name, status: entry.status, capabilities: entry.capabilities, capabilities_used: entry.capabilities_used });
        } else {
          printOut(`${entry.name} passed its test in the sandbox, failed every stub, and is promoted (capabilities: ${entry.capabilities.join(', ') || 'none'}).\n`);
        }
        return EXIT.ok;
      });
    });

  tools
    .command('test')
    .description("Put a toolbox tool's stored module and test through the verification gate again, now: the test against the tool in the sandbox, then against every stub. Reports only; the toolbox is not changed.")
    .argument('<name>', 'toolbox tool name')
    .option('--json', 'print the verdict as JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { entry, verification } = await runtime.tools.retest(name);
        const failures = verification.passed ? [] : verification.failures;
        if (json) {
          const verdict = { name: entry.name, status: entry.status, passed: verification.passed, failures, capabilities_used: verification.testRun.capabilitiesUsed };
          printJson(verdict);
        } else if (verification.passed) {
          printOut(`${entry.name} (${entry.status}) still passes its test in the sandbox and fails every stub.\n`);
        } else {
          printOut(`${entry.name} (${entry.status}) no longer passes the gate:\n${failures.map((failure) => `  - ${failure}`).join('\n')}\n`);
        }
        return verification.passed ? EXIT.ok : EXIT.failed;
      });
    });

  tools
    .command('remove')
    .description('Remove a synthesized or added tool from the toolbox (built-in and MCP tools cannot be removed here).')
    .argument('<name>', 'tool name')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        await runtime.tools.remove(name);
        if (json) printJson({ removed: name });
        else printOut(`removed ${name}\n`);
        return EXIT.ok;
      });
    });

  tools
    .command('export')
    .description('Write the toolbox (every synthesized and added tool, failed ones too, with source, test and use count) as a versioned manifest, to move it to another Forge or keep a copy.')
    .argument('[file]', 'where to write it (default: stdout)')
    .action(async (file: string | undefined) => {
      await withRuntime(false, async (runtime) => {
        const { exportToolboxManifest } = await import('../../synthesis/toolbox/index.js');
        const manifest = await exportToolboxManifest(runtime.toolbox);
        if (file === undefined) printJson(manifest);
        else {
          // Tool sources and tests, and what tools were written to do: private, like the store they came from.
          const { writeFile } = await import('node:fs/promises');
          await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
          printError(`exported ${formatQuantity(manifest.tools.length, 'tool')} to ${file}\n`);
        }
        return EXIT.ok;
      });
    });

  tools
    .command('import')
    .description('Add the tools of a manifest written by `forge tools export` (or the manifest.json of an older Forge). Each promoted tool passes the verification gate again first; a malformed manifest or a tool that fails the gate imports nothing.')
    .argument('<file>', 'a toolbox manifest')
    .option('--json', 'print the imported tools as JSON')
    .action(async (file: string, options: { json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { readFile } = await import('node:fs/promises');
        const { importToolboxManifest } = await import('../../synthesis/toolbox/index.js');
        const text = await readInputFile(readFile, file, '<file>', 'Pass the path of a manifest written by `forge tools export`.');
        if (!json) printError(`importing ${file}: every promoted tool goes through the verification gate again…\n`);
        const imported = await importToolboxManifest(runtime.toolbox, runtime.registry, text, file, { fetch: runtime.fetch });
        if (json) printJson({ imported: imported.map((entry) => ({ name: entry.name, status: entry.status, uses: entry.uses })) });
        else printOut(`imported ${formatQuantity(imported.length, 'tool')}${imported.map((entry) => `\n  ${entry.name} (${entry.status})`).join('')}\n`);
        return EXIT.ok;
      });
    });

  tools
    .command('call')
    .description('Call a tool directly, without a model, as a recorded one-step run, through the same dispatch as agent runs (validation, policy, SSRF guard, output cap all apply).')
    .argument('<name>', 'tool name')
    .requiredOption('--input <json>', 'the tool input as JSON, e.g. \'{"url": "https://example.org"}\'')
    .option('--json', 'print the outcome as JSON')
    .addHelpText('after', `\nExample:\n  $ forge tools call read_url --input '{"url": "https://nodejs.org/en/about/previous-releases"}'`)
    .action(async (name: string, options: { input: string; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const input = parseJsonOption('--input', options.input);
        const { callTool } = await import('../../compose/index.js');
        const unsubscribe = json ? () => {} : runtime.bus.subscribe((event) => printError(`${formatEventLine(event)}\n`));
        const called = await callTool(runtime, { name, input, signal: AbortSignal.timeout(120_000) });
        unsubscribe();
        const { outcome } = called;
        if (json) {
          printJson({
            run_id: called.run_id,
            log_file: called.log_file,
            ok: outcome.ok,
            call_id: outcome.callId,
            tool: outcome.tool,
            input: outcome.input,
            output: readableOutput(outcome.output),
            truncated: outcome.truncated,
            untrusted: outcome.untrusted,
            duration_ms: outcome.durationMs,
            ...(outcome.ok ? {} : { error: outcome.error, ...(outcome.awaitingApproval === true ? { awaiting_approval: true } : {}) }),
          });
        } else {
          printOut(`${readableOutput(outcome.output)}\n`);
        }
        return outcome.ok ? EXIT.ok : EXIT.failed;
      });
    });
}
