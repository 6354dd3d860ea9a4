import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ConfigurationError, RISK_LEVELS, type PolicyDecisionKind, type RiskLevel } from '../../core/index.js';
import type { PolicyChange, PolicyCondition, PolicyDocument, PolicyRule } from '../../policy/index.js';
import { EXIT } from '../command-errors.js';
import { printError, printJson, printOut } from '../terminal-output.js';
import { withRuntime } from '../with-runtime.js';

const DECISIONS = ['allow', 'require_approval', 'block'] as const;
const LIST_OPERATORS = new Set(['in', 'not_in', 'host_not_in']);
const OPERATORS = ['matches', 'in', 'not_in', 'host_not_in', 'outside'];

/** `--when "<argument> <operator> <value>"`: `command matches rm\s+-rf`, `method not_in GET,HEAD`, `url host_not_in example.com,*.example.com`, `path outside /srv/data`. */
export function parseCondition(text: string, previous: PolicyCondition[] = []): PolicyCondition[] {
  const match = /^\s*(\S+)\s+(\S+)\s+(.+?)\s*$/s.exec(text);
  if (match === null || !OPERATORS.includes(match[2]!)) {
    throw new ConfigurationError('--when', `"${text}" is not "<argument> <operator> <value>" with an operator among ${OPERATORS.join(', ')}.`, 'e.g. --when "command matches rm\\s+-rf" or --when "method not_in GET,HEAD"');
  }
  const [, argument, operator, value] = match as unknown as [string, string, string, string];
  const operand = LIST_OPERATORS.has(operator) ? value.split(',').map((item) => item.trim()).filter((item) => item !== '') : value;
  return [...previous, { argument, [operator]: operand } as PolicyCondition];
}

function parseDecision(text: string): PolicyDecisionKind {
  const normalized = text.replace('-', '_');
  if (!(DECISIONS as readonly string[]).includes(normalized)) throw new ConfigurationError('decision', `"${text}" is not one of ${DECISIONS.join(', ')}.`);
  return normalized as PolicyDecisionKind;
}

function ruleLine(rule: PolicyRule, index: number): string {
  const when = rule.when === undefined ? '' : ` when ${rule.when.map((condition) => describe(condition)).join(' and ')}`;
  const expires = rule.approval_expires_seconds === undefined ? '' : ` (answer within ${rule.approval_expires_seconds} s)`;
  return `  ${index + 1}. ${rule.tool}: ${rule.decision}${when}${expires}${rule.reason === undefined ? '' : `\n     reason: ${rule.reason}`}`;
}

function describe(condition: PolicyCondition): string {
  const operator = OPERATORS.find((name) => (condition as Record<string, unknown>)[name] !== undefined)!;
  const value = (condition as Record<string, unknown>)[operator];
  return `${condition.argument} ${operator} ${Array.isArray(value) ? value.join(',') : String(value)}`;
}

function documentLines(document: PolicyDocument): string {
  const defaults = Object.entries(document.defaults).map(([risk, decision]) => `${risk}=${decision}`);
  return `defaults: ${defaults.length === 0 ? '(none set here)' : defaults.join(' ')}\nrules:${document.rules.length === 0 ? ' (none)' : `\n${document.rules.map(ruleLine).join('\n')}`}\n`;
}

function printChange(change: PolicyChange, json: boolean): number {
  if (json) {
    printJson({ scope: change.scope, version: change.version, document: change.document, warnings: change.warnings });
  } else {
    printOut(`Saved the policy of ${change.scope} as v${change.version}.\n${documentLines(change.document)}`);
    for (const warning of change.warnings) printError(`forge: warning: ${warning}\n`);
  }
  return EXIT.ok;
}

interface ScopeOptions {
  scope?: string;
  json?: boolean;
  message?: string;
}

const author = () => process.env['USER'] ?? 'cli';

export function registerPolicyCommand(program: Command): void {
  const policy = program
    .command('policy')
    .description('What may run: per-tool allow / require_approval / block rules, defaults by risk level, scopes; explain a decision.')
    .addHelpText(
      'after',
      `
Every tool call (agent runs, skill replays, \`forge tools call\`, the API, Forge's MCP server) is decided by
the policy at the one dispatch point, and the decision is recorded as an event with the rule that made it.

Layers, broadest first: the built-in defaults (low and medium risk: allow, high: require_approval,
critical: block), FORGE_REQUIRE_APPROVAL, the installation's policy, an agent's or a deployment's, and a
run's own. Within a layer the most specific rule applies (with conditions over without, an exact name over
a pattern). A narrower layer may tighten anything; it never relaxes a broader block nor a broader explicit
require_approval rule, and a run's own rules only tighten. Every change saves a new version.

Conditions (--when, repeatable, all must hold) look at the call's input:
  "command matches <regex>"        linear-time regular expression
  "method not_in GET,HEAD"         also: in (case-insensitive)
  "url host_not_in a.com,*.b.com"  the URL's host is none of these
  "path outside /srv/data"         relative paths are taken from the workspace
A field that is missing makes a restricting rule apply and an allowing rule not (ambiguity fails closed).

Examples:
  $ forge policy set shell block --when "command matches rm\\s+-rf"
  $ forge policy set http_request require_approval --when "method not_in GET,HEAD"
  $ forge policy set "mcp__github__*" require_approval --expires 600
  $ forge policy default high allow --scope agent:researcher
  $ forge policy test shell --input '{"command":"rm -rf build"}'
  $ forge policy versions && forge policy rollback 2`,
    );

  policy
    .command('show')
    .description("Show a scope's policy in force (default: the installation's), and the defaults under it.")
    .option('--scope <scope>', 'installation, agent:<slug>, deployment:<id> or run:<id>', 'installation')
    .option('--json', 'print JSON')
    .action(async (options: ScopeOptions) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { policyShowView } = await import('../../policy/index.js');
        const shown = await runtime.policies.show(options.scope);
        if (json) {
          printJson(policyShowView(shown));
          return EXIT.ok;
        }
        const builtIn = RISK_LEVELS.map((risk) => `${risk}=${shown.builtInDefaults[risk]}`).join(' ');
        printOut(`built-in defaults: ${builtIn}\n`);
        printOut(`built-in rules (a rule of yours for the same tool overrides one):\n${shown.builtInRules.map(ruleLine).join('\n')}\n`);
        if (shown.configurationRequiresApproval.length > 0) printOut(`FORGE_REQUIRE_APPROVAL: ${shown.configurationRequiresApproval.join(', ')}\n`);
        printOut(`${shown.scope}: ${shown.version === null ? 'no policy saved' : `v${shown.version} by ${shown.author ?? '?'} at ${shown.createdAt ?? '?'}`}\n${documentLines(shown.document)}`);
        const others = (await runtime.policies.scopes()).filter((scope) => scope !== shown.scope);
        if (others.length > 0) printOut(`other scopes with a policy: ${others.join(', ')}\n`);
        return EXIT.ok;
      });
    });

  policy
    .command('set')
    .description('Add a rule (or replace the one with the same tool and conditions), or replace the whole document with --file.')
    .argument('[tool]', 'a tool name, or a pattern with * (mcp__github__*)')
    .argument('[decision]', 'allow, require_approval or block')
    .option('--when <condition>', 'a condition on the input (repeatable; see below)', parseCondition)
    .option('--reason <text>', 'what the model and the approver are told')
    .option('--expires <seconds>', 'for require_approval: how long the request waits and an answer stays valid', (value) => Number.parseInt(value, 10))
    .option('--file <policy.json>', 'replace the scope\'s whole document with this file (the format `forge policy show --json` prints under "document")')
    .option('--scope <scope>', 'installation, agent:<slug>, deployment:<id> or run:<id>', 'installation')
    .option('--message <text>', 'why (kept with the version)')
    .option('--json', 'print JSON')
    .action(async (tool: string | undefined, decision: string | undefined, options: ScopeOptions & { when?: PolicyCondition[]; reason?: string; expires?: number; file?: string }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const by = { author: author(), ...(options.message === undefined ? {} : { message: options.message }) };
        if (options.file !== undefined) {
          if (tool !== undefined) throw new ConfigurationError('--file', 'replaces the whole document; give either a file or a tool and a decision.');
          const text = await readFile(options.file, 'utf8');
          let document: unknown;
          try {
            document = JSON.parse(text) as unknown;
          } catch (error) {
            throw new ConfigurationError('--file', `${options.file} is not JSON (${error instanceof Error ? error.message : String(error)}).`);
          }
          return printChange(await runtime.policies.replace(options.scope ?? 'installation', document, by), json);
        }
        if (tool === undefined || decision === undefined) throw new ConfigurationError('tool and decision', 'are required (or --file).', 'e.g. forge policy set shell block --when "command matches rm\\s+-rf"');
        const rule = {
          tool,
          decision: parseDecision(decision),
          ...(options.when === undefined ? {} : { when: options.when }),
          ...(options.reason === undefined ? {} : { reason: options.reason }),
          ...(options.expires === undefined ? {} : { approval_expires_seconds: options.expires }),
        };
        return printChange(await runtime.policies.setRule(options.scope ?? 'installation', rule, by), json);
      });
    });

  policy
    .command('unset')
    .description('Remove the rule with this tool and these conditions (none given: the unconditional one).')
    .argument('<tool>', 'the rule\'s tool name or pattern')
    .option('--when <condition>', 'the rule\'s conditions, as they were set (repeatable)', parseCondition)
    .option('--scope <scope>', 'installation, agent:<slug>, deployment:<id> or run:<id>', 'installation')
    .option('--message <text>', 'why (kept with the version)')
    .option('--json', 'print JSON')
    .action(async (tool: string, options: ScopeOptions & { when?: PolicyCondition[] }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const by = { author: author(), ...(options.message === undefined ? {} : { message: options.message }) };
        return printChange(await runtime.policies.removeRule(options.scope ?? 'installation', { tool, ...(options.when === undefined ? {} : { when: options.when }) }, by), json);
      });
    });

  policy
    .command('default')
    .description("Set a scope's decision for one risk level (or `unset` it).")
    .argument('<risk>', RISK_LEVELS.join(', '))
    .argument('<decision>', 'allow, require_approval, block or unset')
    .option('--scope <scope>', 'installation, agent:<slug>, deployment:<id> or run:<id>', 'installation')
    .option('--message <text>', 'why (kept with the version)')
    .option('--json', 'print JSON')
    .action(async (risk: string, decision: string, options: ScopeOptions) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        if (!(RISK_LEVELS as readonly string[]).includes(risk)) throw new ConfigurationError('risk', `"${risk}" is not one of ${RISK_LEVELS.join(', ')}.`);
        const by = { author: author(), ...(options.message === undefined ? {} : { message: options.message }) };
        return printChange(await runtime.policies.setDefault(options.scope ?? 'installation', risk as RiskLevel, decision === 'unset' ? null : parseDecision(decision), by), json);
      });
    });

  policy
    .command('test')
    .description('Explain what would happen to a call, without making it: the decision, the rule that made it, and every layer.')
    .argument('<tool>', 'the tool, as `forge tools list` names it')
    .option('--input <json>', "the call's input as JSON", '{}')
    .option('--scope <scope>', 'a narrower scope to apply too (agent:<slug>, deployment:<id>; repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--run <run-id>', "apply this run's own policy too")
    .option('--json', 'print JSON')
    .action(async (tool: string, options: { input: string; scope?: string[]; run?: string; json?: boolean }) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        let input: unknown;
        try {
          input = JSON.parse(options.input) as unknown;
        } catch (error) {
          throw new ConfigurationError('--input', `is not JSON (${error instanceof Error ? error.message : String(error)}).`, `e.g. --input '{"command":"ls"}'`);
        }
        const { policyTestView } = await import('../../policy/index.js');
        const runId = options.run === undefined ? undefined : (await runtime.runs.get(options.run)).id;
        const tested = await runtime.policies.test({ tool, input, ...(options.scope === undefined ? {} : { scopes: options.scope }), ...(runId === undefined ? {} : { runId }) });
        if (json) {
          printJson(policyTestView(tested));
          return EXIT.ok;
        }
        printOut(`${tested.tool} (${tested.risk} risk, ${tested.sideEffect}): ${tested.verdict.decision}\n  rule: ${tested.verdict.rule}\n  reason: ${tested.verdict.reason}\n`);
        if (tested.verdict.approvalExpiresSeconds !== undefined) printOut(`  an approval is asked for and valid ${tested.verdict.approvalExpiresSeconds} s\n`);
        printOut(`how it was decided:\n${tested.trace.map((line) => `  - ${line}`).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  policy
    .command('versions')
    .description("A scope's saved versions, newest first.")
    .option('--scope <scope>', 'installation, agent:<slug>, deployment:<id> or run:<id>', 'installation')
    .option('--json', 'print JSON')
    .action(async (options: ScopeOptions) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const { policyVersionView } = await import('../../policy/index.js');
        const versions = await runtime.policies.versions(options.scope ?? 'installation');
        if (json) printJson({ scope: options.scope ?? 'installation', versions: versions.map(policyVersionView) });
        else printOut(versions.length === 0 ? `${options.scope ?? 'installation'} has no saved policy.\n` : `${versions.map((version) => `v${version.version}  ${version.createdAt}  ${version.author}  ${version.message}`).join('\n')}\n`);
        return EXIT.ok;
      });
    });

  policy
    .command('rollback')
    .description("Save an earlier version's document again, as the newest version.")
    .argument('<version>', 'the version to go back to', (value) => Number.parseInt(value, 10))
    .option('--scope <scope>', 'installation, agent:<slug>, deployment:<id> or run:<id>', 'installation')
    .option('--message <text>', 'why (kept with the version)')
    .option('--json', 'print JSON')
    .action(async (version: number, options: ScopeOptions) => {
      const json = options.json === true;
      await withRuntime(json, async (runtime) => {
        const by = { author: author(), ...(options.message === undefined ? {} : { message: options.message }) };
        return printChange(await runtime.policies.rollback(options.scope ?? 'installation', version, by), json);
      });
    });
}
