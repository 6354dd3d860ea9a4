import type { Command } from 'commander';
import { ConfigurationError } from '../../core/index.js';
import type { ForgeRuntime } from '../../compose/index.js';
import { EXIT, errorLines, exitCodeForRun, parsePositiveInteger, reportError } from '../command-errors.js';
import { formatQuantity } from '../event-line/index.js';
import { cliRedactor, printError, printJson, printOut } from '../terminal-output.js';

interface RunCommandOptions {
  model?: string;
  maxIterations?: number;
  json?: boolean;
  tui: boolean;
  system?: string;
  conversation?: string;
  skills?: boolean;
  converge?: boolean;
  fresh?: boolean;
  keep?: boolean;
  tools?: readonly string[];
  resume?: string;
  waitForApproval?: boolean;
  block?: readonly string[];
  requireApproval?: readonly string[];
  agent?: string;
  param?: Record<string, string>;
}

/** `--param k=v`, repeatable: the agent's parameters as text (read as their types by the agent). */
function parseParam(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new ConfigurationError('--param', `"${value}" is not name=value.`, 'e.g. --param topic=tides --param depth=2');
  return { ...previous, [value.slice(0, at).trim()]: value.slice(at + 1) };
}

/** `--tools a,b`: exact tool names, commas between them; an empty list is a run without catalog tools. */
function parseToolList(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** `--block` and `--require-approval`: the run's own rules, which only tighten the installation's policy. */
function runPolicy(options: Pick<RunCommandOptions, 'block' | 'requireApproval'>): { policyRules?: { tool: string; decision: 'block' | 'require_approval'; reason: string }[] } {
  const rules = [
    ...(options.block ?? []).map((tool) => ({ tool, decision: 'block' as const, reason: `${tool} is blocked for this run (--block)` })),
    ...(options.requireApproval ?? []).map((tool) => ({ tool, decision: 'require_approval' as const, reason: `${tool} needs approval in this run (--require-approval)` })),
  ];
  return rules.length === 0 ? {} : { policyRules: rules };
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run an agent on a task: the model calls tools (web_search, read_url, http_request, …) until it can answer.')
    .argument('[task...]', 'what the agent should do, in plain words (none with --resume)')
    .option('-m, --model <slug>', 'model slug, e.g. openai:gpt-4.1-mini, anthropic:claude-sonnet-4-6, ollama:llama3.2 (default: FORGE_MODEL)')
    .option('--max-iterations <n>', 'stop after this many model calls (default: 10)', parsePositiveInteger('--max-iterations'))
    .option('--system <prompt>', 'replace the default system prompt')
    .option('--conversation <id>', 'continue a persisted conversation (its id is in the --json output)')
    .option('--skills', 'replay the stored skill that covers the task instead of the agent, its inputs read from the task; a task that does not say an input is refused (the decision and its reason are logged)')
    .option('--converge', 'convergence-gated mode: one tool per turn, a plan, request_tool to synthesize missing tools; halts on final_answer or when nothing changes (cap 25 turns)')
    .option('--tools <names>', 'only these tools, by exact name, commas between (see `forge tools list`); default every tool there is when the run starts', parseToolList)
    .option('--agent <slug[@version]>', 'run this agent definition (its prompt, model, tools and policy; see `forge agent list`), at its active version or the one named')
    .option('--param <name=value>', "a parameter of the agent's (repeatable)", parseParam)
    .option('--block <tools>', "block these tools (names or patterns with *, commas between) for this run: the run's own policy, which only tightens `forge policy`", parseToolList)
    .option('--require-approval <tools>', 'send every call of these tools (names or patterns) for approval in this run', parseToolList)
    .option('--fresh', 'wipe the toolbox of synthesized tools before the run')
    .option('--keep', 'reuse the toolbox of synthesized tools (the default)')
    .option('--resume <run-id>', 'go on with a run (its id or a unique prefix) from its last checkpoint: one whose process ended before it finished (failed, interrupted) or one waiting for an approval; completed tool calls are not run again')
    .option('--wait-for-approval', 'when a call needs approval, pause the run (status waiting) and wait here until `forge approvals approve|deny` answers it from another terminal; without it a call needing approval is refused')
    .option('--json', 'print only the final result as JSON')
    .option('--no-tui', 'print a plain line per event instead of the live view')
    .addHelpText(
      'after',
      `
Examples:
  $ forge run "What is the latest release of Node.js? Cite the page."
  $ forge run --model anthropic:claude-sonnet-4-6 --json "Summarize https://example.org"
  $ forge run --conversation 3f2c… "And what changed since the previous one?"
  $ forge run --converge --fresh "Count the links on https://example.org"
  $ forge run --tools web_search,read_url "What changed in the latest Node.js release?"
  $ forge run --resume 3f2c9a1b7e40
  $ forge run --wait-for-approval "POST the report to https://hooks.example.org/ingest"

A run's tools are fixed when it starts: an MCP server reconnecting, a tool promoted by another run or
a --fresh elsewhere changes what later runs get, never a running one. With --converge, the tools the
run promotes join its own set (and every later run's).

Every run is logged to FORGE_HOME/runs/<timestamp>-<id>.jsonl (replay it with \`forge replay\`).
Ctrl-C stops the run cleanly and records why. Each turn is checkpointed in the store; a run whose
process died is shown failed (interrupted) and can go on with --resume: a tool call that completed is
answered from its recorded result, and a side-effecting call that started but never recorded a result
is not run again (the run fails, naming it). Exit codes: 0 completed, 1 failed, 2 usage, 3 refused,
4 waiting for an approval, 130 cancelled.`,
    )
    .action(async (words: string[], options: RunCommandOptions) => {
      process.exitCode = await runCommand(words.join(' ').trim(), options);
    });
}

/** What a refused approval tells the CLI user: how to answer it next time. */
const NO_APPROVER_ADVICE = 'run it again with --wait-for-approval and answer from another terminal (forge approvals approve <run> <call>), or change the policy (forge policy set <tool> allow)';

async function runCommand(task: string, options: RunCommandOptions): Promise<number> {
  const json = options.json === true;
  if (options.resume !== undefined) {
    const conflicting = (['skills', 'converge', 'tools', 'conversation', 'system', 'fresh', 'model', 'maxIterations', 'block', 'requireApproval', 'agent', 'param'] as const).find((key) => options[key] !== undefined);
    if (task !== '') return reportError(new ConfigurationError('--resume', 'takes the run id alone: the run goes on with its own task.', 'Drop the task words, e.g. forge run --resume 3f2c9a1b7e40.'), json);
    if (conflicting !== undefined) return reportError(new ConfigurationError('--resume', `cannot be combined with --${conflicting.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: a resumed run keeps its own settings.`), json);
  } else if (task === '') {
    return reportError(new ConfigurationError('task', 'is missing: say what the agent should do.', 'e.g. forge run "What is the latest release of Node.js?", or forge run --resume <run-id>.'), json);
  }
  if (options.fresh === true && options.keep === true) return reportError(new ConfigurationError('--fresh', 'contradicts --keep; pass one of them.'), json);
  if (options.converge === true && options.skills === true) return reportError(new ConfigurationError('--converge', 'cannot be combined with --skills.'), json);
  if (options.tools !== undefined && options.skills === true) return reportError(new ConfigurationError('--tools', 'cannot be combined with --skills: a skill replays the tools it recorded.'), json);
  if (options.agent !== undefined) {
    const conflicting = (['skills', 'converge', 'tools', 'system'] as const).find((key) => options[key] !== undefined);
    if (conflicting !== undefined) return reportError(new ConfigurationError('--agent', `cannot be combined with --${conflicting}: the agent's definition says its prompt and tools.`, 'Change the agent with `forge agent edit`, or run without --agent.'), json);
  } else if (options.param !== undefined) {
    return reportError(new ConfigurationError('--param', 'gives a parameter of an agent: it goes with --agent <slug>.', 'e.g. forge run --agent researcher --param topic=tides "…"'), json);
  }
  const controller = new AbortController();
  let interrupts = 0;
  const onInterrupt = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT.cancelled);
    printError('\nforge: stopping (Ctrl-C again to quit at once)…\n');
    controller.abort('interrupted by the user (Ctrl-C)');
  };
  process.on('SIGINT', onInterrupt);
  let runtime: ForgeRuntime | undefined;
  try {
    // Loaded on use, so `forge --help` and other commands start fast.
    const { openRuntime, refusingApprovals, resumeTask, runAgentTask, runTask, runTaskWithSkills, storedApprovals, waitAndResume } = await import('../../compose/index.js');
    const { attachRunView } = await import('../run-view.js');
    runtime = await openRuntime(process.env, process.cwd(), { redactor: cliRedactor });
    const view = await attachRunView(runtime.bus, { json, tui: options.tui });
    const wait = options.waitForApproval === true;
    let result;
    try {
      const approvals = { approvals: wait ? storedApprovals(runtime) : refusingApprovals(NO_APPROVER_ADVICE) };
      result =
        options.resume !== undefined
          ? await resumeTask(runtime, options.resume, { signal: controller.signal, ...approvals })
          : options.agent !== undefined
            ? await runAgentTask(runtime, {
                agent: options.agent,
                task,
                signal: controller.signal,
                ...(options.param === undefined ? {} : { params: options.param }),
                ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
                ...(options.model === undefined ? {} : { model: options.model }),
                ...(options.conversation === undefined ? {} : { conversationId: options.conversation }),
                ...runPolicy(options),
                toolbox: options.fresh === true ? 'fresh' : 'keep',
                ...approvals,
              })
            : await (options.skills === true ? runTaskWithSkills : runTask)(runtime, {
              task,
              signal: controller.signal,
              ...(options.maxIterations === undefined ? {} : { maxIterations: options.maxIterations }),
              ...(options.model === undefined ? {} : { model: options.model }),
              ...(options.system === undefined ? {} : { system: options.system }),
              ...(options.conversation === undefined ? {} : { conversationId: options.conversation }),
              ...(options.converge === true ? { converge: true } : {}),
              ...(options.tools === undefined ? {} : { tools: options.tools }),
              ...runPolicy(options),
              toolbox: options.fresh === true ? 'fresh' : 'keep',
              ...approvals,
            });
      if (wait && result.status === 'waiting' && 'conversation_id' in result) {
        const paused = result;
        result = await waitAndResume(runtime, paused, {
          signal: controller.signal,
          onWaiting: (pending) => {
            for (const approval of pending) {
              printError(`forge: waiting for approval of ${approval.tool} (${approval.callId}): ${approval.reason}\n  answer: forge approvals approve ${paused.run_id} ${approval.callId}   or: forge approvals deny ${paused.run_id} ${approval.callId} --reason "…"\n`);
            }
          },
        });
      }
    } finally {
      await view.stop();
    }
    if (json) {
      printJson(result);
    } else {
      if (result.answer !== null) printOut(`${result.answer}\n`);
      for (const warning of 'warnings' in result ? (result.warnings ?? []) : []) printError(`forge: WARNING: ${warning}\n`);
      if (result.error !== null) printError(errorLines(result.error));
      if (result.status === 'waiting') printError(`forge: run ${result.run_id} waits for an approval: see \`forge approvals list\`; it goes on once answered (or with \`forge run --resume ${result.run_id}\`).\n`);
      const how = 'conversation_id' in result ? `conversation ${result.conversation_id}` : `${result.status === 'refused' ? 'refused to replay' : 'replayed'} skill ${result.skill} (${result.mode}, ${formatQuantity(result.llm_calls, 'model call')})`;
      printError(`run ${result.run_id} · ${how} · log ${result.log_file}\n`);
    }
    return exitCodeForRun(result.status);
  } catch (error) {
    return reportError(error, json);
  } finally {
    process.off('SIGINT', onInterrupt);
    await runtime?.close();
  }
}
