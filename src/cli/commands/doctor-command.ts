import type { Command } from 'commander';
import type { DoctorCheck } from '../../compose/index.js';
import { EXIT, reportError } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';

function checkLines(check: DoctorCheck): string {
  const mark = { ok: 'ok     ', warning: 'warning', failed: 'FAILED ', skipped: 'skipped' }[check.status];
  return `${mark}  ${check.check.padEnd(8)}  ${check.detail}\n${check.fix === undefined ? '' : `                     fix: ${check.fix}\n`}`;
}

function verdict(checks: readonly DoctorCheck[], ok: boolean): string {
  if (!ok) return 'Fix what failed, then run forge doctor again.';
  if (checks.some((check) => check.status === 'warning')) return 'Everything needed works; the warnings name optional parts that are not set up.';
  return 'Everything works.';
}

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('Check the configuration end to end: settings, SSRF guard, store writable, sandbox starts, model reachable, search reachable; say what to fix')
    .option('--json', 'print {ok, checks: [{check, status, detail, fix}]}')
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      try {
        const { runDoctor, doctorPassed } = await import('../../compose/index.js');
        const checks = await runDoctor(process.env, process.cwd());
        const ok = doctorPassed(checks);
        if (json) printJson({ ok, checks });
        else printOut(`${checks.map(checkLines).join('')}\n${verdict(checks, ok)}\n`);
        process.exitCode = ok ? EXIT.ok : EXIT.failed;
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
