import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { reportError } from '../command-errors.js';
import { cliRedactor, printJson, printOut } from '../terminal-output.js';

interface InitOptions {
  model?: string;
  search?: string;
  searxngUrl?: string;
  allowHosts?: string;
  project?: boolean;
  yes?: boolean;
  /** `--no-agents`: false. */
  agents?: boolean;
  json?: boolean;
}

const QUESTIONS = [
  ['model', 'model', 'Model slug (openai:gpt-4.1-mini, anthropic:claude-sonnet-4-6, ollama:llama3.2, …)'],
  ['search', 'search', 'Search provider (searxng, tavily or brave; empty for none)'],
  ['searxngUrl', 'searxng_url', 'SearXNG base URL (when the provider is searxng)'],
  ['allowHosts', 'allow_hosts', 'Private hosts the guard lets through, host:port, commas between (e.g. your SearXNG)'],
] as const;

/** The answers to the questions the flags left open, asked on the terminal (Enter keeps the flag's or nothing). */
async function askMissing(options: InitOptions): Promise<InitOptions> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  const answers: InitOptions = { ...options };
  try {
    for (const [option, , question] of QUESTIONS) {
      const current = answers[option];
      const answer = (await terminal.question(`${question}${current === undefined ? '' : ` [${current}]`}: `)).trim();
      if (answer !== '') answers[option] = answer;
    }
  } finally {
    terminal.close();
  }
  return answers;
}

export function registerInitCommand(program: Command): void {
  program
    .command('init')
    .description('Write forge.config.json (in the Forge home, or the project with --project): model, search provider, allowed hosts')
    .option('--model <slug>', 'the model slug (model / FORGE_MODEL)')
    .option('--search <provider>', 'searxng, tavily or brave (search / FORGE_SEARCH)')
    .option('--searxng-url <url>', 'the SearXNG base URL (searxng_url / FORGE_SEARXNG_URL)')
    .option('--allow-hosts <host:port,…>', 'private hosts the SSRF guard lets through (allow_hosts / FORGE_ALLOW_HOSTS)')
    .option('--project', 'write ./forge.config.json instead of the home\'s file')
    .option('-y, --yes', 'ask nothing: write what the flags say (the default when stdin is not a terminal)')
    .option('--no-agents', 'do not install the starter agents (researcher, release-notes, toolsmith)')
    .option('--json', 'print the file written and the keys set')
    .addHelpText(
      'after',
      `
Keys are set with forge config set <key> <value> (e.g. openai_api_key, tavily_api_key); the file is
readable by you only. Then check everything with forge doctor.`,
    )
    .action(async (options: InitOptions) => {
      const json = options.json === true;
      try {
        const answers = options.yes === true || process.stdin.isTTY !== true ? options : await askMissing(options);
        const values = QUESTIONS.flatMap(([option, key]) => (answers[option] === undefined || answers[option] === '' ? [] : [[key, answers[option]] as const]));
        const { setSettings } = await import('../../config/index.js');
        const file = setSettings(process.env, process.cwd(), options.project === true ? 'project' : 'home', values);
        const agents = options.agents === false ? [] : await installStarterAgents();
        if (json) printJson({ file, set: values.map(([key]) => key), agents });
        else {
          printOut(`Wrote ${file} (${values.map(([key]) => key).join(', ') || 'no settings'}).\n`);
          if (agents.length > 0) printOut(`Installed the starter agents ${agents.join(', ')} (see \`forge agent list\`; run one with \`forge run --agent researcher --param topic=…\`).\n`);
          printOut('Next: forge doctor checks the model, the search and the rest end to end.\n');
        }
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}

/** The starter agents not installed yet, into the store the new settings point at. */
async function installStarterAgents(): Promise<string[]> {
  const { agentServiceOf, openRuntime } = await import('../../compose/index.js');
  const runtime = await openRuntime(process.env, process.cwd(), { redactor: cliRedactor });
  try {
    return await (await agentServiceOf(runtime)).installStarters({ author: 'forge init', userId: null });
  } finally {
    await runtime.close();
  }
}
