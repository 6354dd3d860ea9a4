import { ConfigurationError } from '../core/index.js';
import { createUtilityModel } from '../llm/index.js';
import type { AgentContext } from '../agents/index.js';
import { agentLoopSettings } from './agent-loop-settings.js';
import { agentServiceOf } from './agent-service-of.js';
import { prepareTaskRun, type TaskRunOptions, type RunTaskResult } from './task-runs.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import type { PreparedRun } from './prepared-run.js';

export interface AgentRunOptions extends Omit<TaskRunOptions, 'system' | 'tools' | 'converge' | 'agent' | 'prepare' | 'historyMessages'> {
  /** `slug` (its active version) or `slug@version`. */
  readonly agent: string;
  /** Parameter values as text (`--param k=v`), read as their parameters' types. */
  readonly params?: Readonly<Record<string, string>>;
  /** Where the run is: `background` (a command), `chat`, `automation`; picks the preamble and postamble. Default `background`. */
  readonly context?: AgentContext;
}

/**
 * Checks a run of an agent definition and makes it ready to start: pins the run to the version it runs (recorded with the run), checks its parameters (a
 * required one without a value is an `AgentParameterError` naming what to give), renders its prompt in
 * the template sandbox, offers the model only the tools the definition gives access to, and applies its
 * tool access as the run's `agent:<slug>` policy scope, so a disabled tool is refused at dispatch too
 * and nothing relaxes the installation's blocks. What it refuses (no such agent or version, a parameter,
 * another model than the agent allows) is refused before a run or conversation exists.
 */
export async function prepareAgentRun(runtime: ForgeRuntime, options: AgentRunOptions): Promise<PreparedRun<RunTaskResult>> {
  const agents = await agentServiceOf(runtime);
  const { AgentParameterError, extractAgentParameters, parameterProblems, parameterQuestion, parameterValuesFromText, renderAgentPrompt, agentOffersTool } = await import('../agents/index.js');
  const { pin, definition } = await agents.forRun(options.agent);
  if (options.model !== undefined && definition.model.slug !== undefined && !definition.model.allow_override) {
    throw new ConfigurationError('--model', `agent ${pin.slug} runs on ${definition.model.slug} and does not allow another model.`, 'Leave out --model, or set model.allow_override in the definition.');
  }
  // --param values first; what they leave open is read from the task where it says it plainly (no model call).
  const context = options.context ?? 'background';
  const given = parameterValuesFromText(definition, options.params ?? {});
  const open = { ...definition, parameters: definition.parameters.filter((parameter) => !Object.hasOwn(given, parameter.name)) };
  let params = given;
  let unread = false;
  if (open.parameters.length > 0) {
    const extraction = await extractAgentParameters(open, options.task);
    const { lines } = parameterProblems(open, extraction);
    // In a chat what the rules could not read goes to one metered model call inside the run, then the chat asks; elsewhere it is refused now, naming each.
    if (lines.length > 0 && context !== 'chat') throw new AgentParameterError(pin.slug, lines, extraction.missing);
    unread = lines.length > 0;
    params = { ...extraction.values, ...given };
  }
  const owner = options.userId ?? null;
  const toolbox = new Set((await runtime.toolbox.visibleTo(owner)).filter((entry) => entry.status === 'promoted').map((entry) => entry.name));
  const offered = runtime.registry
    .snapshot(undefined, await runtime.tools.accountTools(owner))
    .list()
    .filter((tool) => agentOffersTool(definition, tool.name, { fromToolbox: toolbox.has(tool.name) }));
  const skills = (await runtime.skills.list()).filter((entry) => definition.skills.includes(entry.record.name));
  const others = await agents.list();
  const environment = {
    context,
    tools: offered.map((tool) => ({ name: tool.name, description: tool.description })),
    skills: skills.map((entry) => ({ name: entry.record.name, description: entry.document?.description ?? '' })),
    agents: others.filter((other) => other.slug !== pin.slug).map((other) => ({ slug: other.slug, name: other.name, description: '' })),
    now: new Date(),
  };
  const model = options.model ?? definition.model.slug;
  const prepare: TaskRunOptions['prepare'] = async (run, resolved) => {
    const extraction = await extractAgentParameters(open, options.task, { utilityModel: createUtilityModel(resolved, run.meter, run.emitter.emit), signal: run.signal });
    const question = parameterQuestion(open, extraction);
    if (question !== undefined) return { reply: question };
    return { system: renderAgentPrompt(definition, { ...environment, params: { ...extraction.values, ...given } }) };
  };
  const prepared = await prepareTaskRun(runtime, {
    ...options,
    ...(model === undefined ? {} : { model }),
    ...(unread ? { prepare } : { system: renderAgentPrompt(definition, { ...environment, params }) }),
    tools: offered.map((tool) => tool.name),
    ...(definition.mode === 'converge' ? { converge: true } : {}),
    historyMessages: definition.memory.history_limit,
    agent: await agentLoopSettings(pin, definition),
  });
  return { ...prepared, pinned: `${pin.slug}@${pin.version}` };
}
