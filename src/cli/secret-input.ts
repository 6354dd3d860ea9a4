import { ConfigurationError } from '../core/index.js';

/** The first line of stdin (a password piped in: `printf '%s' "$PW" | forge users add …`). */
export async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length > 4096 || chunk.includes(0x0a)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

/** Reads one line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    let typed = '';
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          finish();
          resolve(typed);
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new ConfigurationError('password', 'was not given (Ctrl-C).'));
          return;
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    stdin.on('data', onData);
  });
}

/**
 * A secret for a command (a new account's password): asked twice without echo on a terminal, else the
 * first line of stdin. Never taken from an argument, where it would land in the shell history and `ps`.
 */
export async function readSecret(label: string): Promise<string> {
  if (process.stdin.isTTY !== true) {
    const piped = await firstLineOfStdin();
    if (piped === '') throw new ConfigurationError(label, 'was empty on stdin.', `Pipe it in: printf '%s' "$PASSWORD" | forge …`);
    return piped;
  }
  const first = await promptHidden(`${label}: `);
  const again = await promptHidden(`${label} (again): `);
  if (first !== again) throw new ConfigurationError(label, 'the two entries differ.', 'Run the command again and type the same password twice.');
  return first;
}
