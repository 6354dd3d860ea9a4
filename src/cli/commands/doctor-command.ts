import type { Command } from 'commander';
import type { DoctorCheck } from '../../compose/index.js';
import { EXIT, reportError } from '../command-errors.js';
import { printJson, printOut } from '../terminal-output.js';

function checkLines(check: DoctorCheck): string {
  const mark = { ok: 'ok     ', failed: 'FAILED ', skipped: 'skipped' }[check.status];
  return `${mark}  ${check.check.padEnd(8)}  ${check.detail}\n${check.fix === undefined ? '' : `                     fix: ${check.fix}\n`}`;
}

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('Check the configuration end to end: settings, SSRF guard, store writable, sandbox starts, model reachable, search reachable; say what to fix')
    .option('--json', 'print {ok, checks: [{check, status, detail, fix}]}')
    .action(async (options: { json?: boolean }) => {
      const json = options.json === true;
      try {
        const { runDoctor } = await import('../../compose/index.js');
        const checks = await runDoctor(process.env, process.cwd());
        const ok = checks.every((check) => check.status === 'ok');
        if (json) printJson({ ok, checks });
        else printOut(`${checks.map(checkLines).join('')}${ok ? '\nEverything works.\n' : '\nFix what failed, then run forge doctor again.\n'}`);
        process.exitCode = ok ? EXIT.ok : EXIT.failed;
      } catch (error) {
        process.exitCode = reportError(error, json);
      }
    });
}
