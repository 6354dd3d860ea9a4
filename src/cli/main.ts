import { CommanderError } from 'commander';
import { EXIT, reportError, reportUsageError } from './command-errors.js';
import { commandNamedBy } from './command-path.js';
import { buildProgram } from './program.js';

// A reader that stops early (`forge --help | head`) closes the pipe: that ends the output, not in a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? EXIT.ok);
  });
}

const json = process.argv.includes('--json');
// With --json, an argument-parser error is printed as the JSON error document below, not as commander's text.
const program = buildProgram(json ? { outputError: () => {}, writeErr: () => {} } : {});

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    const done = error.exitCode === 0;
    if (json && !done) reportUsageError(error, commandNamedBy(program, process.argv.slice(2)));
    process.exitCode = done ? EXIT.ok : EXIT.usage;
  } else {
    process.exitCode = reportError(error, json);
  }
}
