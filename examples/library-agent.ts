/**
 * Forge as a library: a runtime opened from code, a tool of your own, an agent run that uses it, the
 * run saved as a skill and replayed with no model call, and a direct tool call. It imports Forge by its
 * package name, as an installed `forge-agent` is imported (inside this checkout the name resolves to
 * the package itself, through its `exports`: run `npm run build` first).
 *
 *   FORGE_MODEL=openai:gpt-4.1-mini OPENAI_API_KEY=… npx tsx examples/library-agent.ts "How many words are in 'to be or not to be'?"
 *
 * Configuration comes from the environment like the CLI's (FORGE_HOME, FORGE_MODEL, the vendor keys…).
 * It prints one JSON report.
 */
import { callTool, createRuntime, runSkill, runTask } from 'forge-agent';
import { defineTool } from 'forge-agent/tools';
import { z } from 'zod';

const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words of a text.',
  inputSchema: z.object({ text: z.string().describe('the text to count') }),
  risk: 'low',
  sideEffect: 'read',
  async execute({ text }) {
    return { words: text.split(/\s+/).filter((word) => word !== '').length };
  },
});

const task = process.argv[2] ?? "How many words are in 'to be or not to be'?";
const runtime = await createRuntime();
try {
  runtime.registry.register(wordCount);

  const run = await runTask(runtime, { task });
  if (run.status !== 'completed') throw new Error(`the run ended ${run.status}: ${run.error?.message ?? run.halt_reason}`);

  // The run as a skill: the text it counted becomes an input; a replay calls the tool again with no model.
  const saved = await runtime.skills.saveFromRun(run.run_id, { name: 'count-words' });
  const [input] = Object.keys(saved.document.variables_schema.properties);
  const replay = await runSkill(runtime, { skill: 'count-words', inputs: input === undefined ? {} : { [input]: 'the rest is silence' } });

  const direct = await callTool(runtime, { name: 'word_count', input: { text: 'one two three' } });

  process.stdout.write(
    `${JSON.stringify({
      run: { run_id: run.run_id, status: run.status, answer: run.answer, llm_calls: run.llm_calls, tools: run.steps.map((step) => step.tool) },
      skill: { name: saved.document.name, version: saved.version, input: input ?? null },
      replay: { status: replay.status, mode: replay.mode, llm_calls: replay.llm_calls, output: replay.steps.at(-1)?.output ?? null },
      call: { ok: direct.outcome.ok, output: direct.outcome.output },
    })}\n`,
  );
} finally {
  await runtime.close();
}
