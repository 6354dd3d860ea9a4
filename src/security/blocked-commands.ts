import { ForgeError } from '../core/index.js';
import { compileLinearPattern, type LinearPattern } from './index.js';

/** A kind of command the shell tool refuses to start, whatever the policy said. */
export interface BlockedCommandPattern {
  /** Stable id, named in the refusal. */
  readonly id: string;
  /** What the pattern catches, in words. */
  readonly description: string;
}

/**
 * The shell tool refused a command before starting it, because it matched one of its blocked patterns.
 * The patterns are a tripwire for the best-known ways to wreck a machine, not a sandbox: the guard is
 * the approval the policy asks for before any shell command runs.
 */
export class ShellCommandBlockedError extends ForgeError {
  /** The id of the pattern that matched. */
  readonly pattern: string;
  constructor(pattern: BlockedCommandPattern) {
    super({
      name: 'ShellCommandBlockedError',
      message: `The command was refused before it ran: it matches the blocked pattern "${pattern.id}" (${pattern.description}).`,
      hint: 'Change the command so it acts only on files inside the workspace. Commands like this one (wiping or formatting disks, powering the machine off, running downloaded scripts) are never run by Forge; a person has to run them outside Forge.',
    });
    this.pattern = pattern.id;
  }
}

const shellProgram = '(?:ba|da|z|k|c|tc|fi|a)?sh';
const interpreter = String.raw`python[\d.]*|perl|ruby|node|php`;
// Where a command word can stand: the start, after a separator or an opening bracket, after `$(` or a
// backtick, behind wrappers (`sudo`, `env`, `timeout 5`, `eval`, `sh -c`, …) and variable assignments,
// with a path prefix.
const commandStart = String.raw`(?:^|[;&|(){}\x60!]|\$\()\s*(?:(?:\w+=\S*|(?:\S*/)?(?:sudo|doas|exec|eval|nohup|command|builtin|env|nice|ionice|time|timeout|then|do|else|xargs|busybox|${shellProgram}))(?:\s+(?:-\S*|\d\S*))*\s+)*(?:\S*/)?`;
// The rest of one simple command: up to the next separator.
const sameCommand = '[^;&|]*';
// Where a word ends.
const wordEnd = String.raw`(?:\s|$|[;&|)])`;
// The root folder or a top-level system folder, alone or with every entry (`/*`, `/.*`), not yet ended.
const systemFolderPath = String.raw`/(?:(?:bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|run|sbin|srv|sys|usr|var)/?)?(?:\.?\*)?`;
// The same as a whole word of a command.
const systemFolder = `${systemFolderPath}${wordEnd}`;
const blockDevice = '/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|sr|mapper/|disk/|mem|kmem|port)';
// Programs that turn encoded text back into text (a script no pattern can read until it runs).
const decoder = String.raw`(?:base64|base32|basenc|xxd|uudecode|openssl)`;
// A shell or interpreter reading its script from its input (`sh`, `bash -s`, `python3 -`), at the end of a command.
const scriptReader = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?(?:${shellProgram}|${interpreter})(?:\s+-\S*)*\s*(?:$|[;&|)])`;

const patternSources: ReadonlyArray<BlockedCommandPattern & { readonly source: string }> = [
  { id: 'rm-root', description: 'deleting / or a top-level system folder', source: String.raw`${commandStart}rm\s(?:${sameCommand}\s)?${systemFolder}` },
  { id: 'rm-no-preserve-root', description: 'rm with --no-preserve-root', source: String.raw`${commandStart}rm\s${sameCommand}--no-preserve-root` },
  {
    id: 'find-root-delete',
    description: 'find / (or a top-level system folder) … -delete or -exec rm',
    source: String.raw`${commandStart}find\s(?:${sameCommand}\s)?${systemFolder}${sameCommand}(?:-delete|-exec\s+(?:\S*/)?(?:rm|shred|unlink)${wordEnd})`,
  },
  {
    id: 'make-file-system',
    description: 'formatting or wiping a disk (mkfs, mke2fs, mkswap, wipefs)',
    source: String.raw`${commandStart}(?:mkfs|mke2fs|mkswap|wipefs)(?:\.\w+)?${wordEnd}`,
  },
  { id: 'dd-to-device', description: 'dd writing to a disk or memory device', source: String.raw`${commandStart}dd\s${sameCommand}\bof=${blockDevice}` },
  { id: 'redirect-to-device', description: 'output redirected onto a disk or memory device', source: String.raw`>[>|]?\s*${blockDevice}` },
  { id: 'copy-to-device', description: 'cp, mv, tee or shred onto a disk or memory device', source: String.raw`${commandStart}(?:cp|mv|tee|shred)\s(?:${sameCommand}\s)?${blockDevice}` },
  {
    id: 'fork-bomb',
    description: 'a function that pipes into itself in the background (a fork bomb)',
    source: String.raw`(?:[\w:.-]+\s*\(\)|\bfunction\s+[\w:.-]+(?:\s*\(\))?)\s*\{\s*[\w:.-]+\s*\|\s*[\w:.-]+\s*&`,
  },
  {
    id: 'power-off',
    description: 'shutting down, rebooting or halting the machine',
    source: String.raw`${commandStart}(?:shutdown|reboot|halt|poweroff|init\s+[06]|telinit\s+[06]|systemctl\s+(?:-\S+\s+)*(?:poweroff|reboot|halt|kexec))${wordEnd}`,
  },
  {
    id: 'recursive-permissions-on-root',
    description: 'chmod, chown or chgrp -R on / or a top-level system folder',
    source: String.raw`${commandStart}(?:chmod|chown|chgrp)\s(?:${sameCommand}\s)?(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)\s(?:${sameCommand}\s)?${systemFolder}`,
  },
  {
    id: 'download-piped-to-shell',
    description: 'a download (curl, wget) piped into a shell',
    source: String.raw`\b(?:curl|wget)\s[^;&]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:\S*/)?${shellProgram}${wordEnd}`,
  },
  {
    id: 'download-run-by-shell',
    description: 'a shell or interpreter running a download (sh <(curl …), bash -c "$(wget …)")',
    source: String.raw`(?:\b(?:${shellProgram}|${interpreter})\s+(?:-\S+\s+)*(?:-[ce]\s*(?:\$\(|\x60)|<\()|(?:\bsource|(?:^|[\s;&|])\.)\s+<\()\s*(?:\S*/)?(?:curl|wget)\b`,
  },
  {
    id: 'decoded-text-to-shell',
    description: 'decoded text (base64 and kin) run by a shell or an interpreter',
    source: String.raw`\b${decoder}\s[^;&]*\|\s*${scriptReader}|\b(?:${shellProgram}|${interpreter})\s+(?:-\S+\s+)*(?:-[ce]\s*(?:\$\(|\x60)|<\()[^;&]*\b${decoder}\b`,
  },
  {
    id: 'script-deletes-root',
    description: 'a script deleting / or a top-level system folder (rmtree, rmSync, rm_rf, …)',
    source: String.raw`\b(?:rmtree|rm_rf|rm_r|rmSync|rmdirSync|removeSync|remove_dir_all)\s*\(\s*${systemFolderPath}\s*[,)]`,
  },
  {
    id: 'kill-everything',
    description: 'kill aimed at every process (kill -9 -1, killall5)',
    source: String.raw`${commandStart}(?:kill\s(?:${sameCommand}\s)?-1\s*(?:$|[;&|)])|killall5${wordEnd})`,
  },
];
const blockedPatterns: ReadonlyArray<BlockedCommandPattern & { readonly pattern: LinearPattern }> = patternSources.map(({ source, ...described }) => {
  const pattern = compileLinearPattern(source);
  if (pattern === undefined) throw new Error(`The blocked shell pattern "${described.id}" does not compile for the linear-time engine.`);
  return { ...described, pattern };
});

/** The blocked patterns, for documentation and tests. */
export const BLOCKED_COMMAND_PATTERNS: readonly BlockedCommandPattern[] = blockedPatterns.map(({ id, description }) => ({ id, description }));

/**
 * The first blocked pattern the command matches, or `undefined`. Matched on the command as the shell
 * would mostly read it: ANSI-C quotes decoded (`$'\x72m'` is `rm`), quotes and backslashes dropped
 * (`r'm' -rf "/"` is `rm -rf /`), `$IFS` read as a space, line continuations joined, other line breaks
 * read as `;`. Linear in the command's length.
 */
export function blockedPatternOf(command: string): BlockedCommandPattern | undefined {
  const normalized = normalizedCommand(command);
  const found = blockedPatterns.find(({ pattern }) => pattern.test(normalized));
  return found === undefined ? undefined : { id: found.id, description: found.description };
}

/** Throws `ShellCommandBlockedError` when the command matches a blocked pattern. */
export function refuseBlockedCommand(command: string): void {
  const pattern = blockedPatternOf(command);
  if (pattern !== undefined) throw new ShellCommandBlockedError(pattern);
}

function normalizedCommand(command: string): string {
  const joined = decodedAnsiCQuotes(command).replaceAll('\\\r\n', '').replaceAll('\\\n', '').replaceAll('${IFS}', ' ').replaceAll('$IFS', ' ');
  let out = '';
  let inSpace = false;
  for (const character of joined) {
    if (character === '"' || character === "'" || character === '\\') continue;
    if (character === '\n' || character === '\r') {
      out += ';';
      inSpace = false;
      continue;
    }
    if (/\s/.test(character)) {
      if (!inSpace) out += ' ';
      inSpace = true;
      continue;
    }
    out += character;
    inSpace = false;
  }
  return out;
}

const simpleEscapes: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/**
 * The command with every ANSI-C quoted string (`$'…'`) replaced by the text the shell makes of it:
 * `\xHH`, `\uHHHH`, `\UHHHHHHHH`, octal `\NNN`, `\cX` and the one-letter escapes decoded. Linear.
 */
function decodedAnsiCQuotes(command: string): string {
  let out = '';
  let index = 0;
  while (index < command.length) {
    const start = command.indexOf("$'", index);
    if (start === -1) return out + command.slice(index);
    out += command.slice(index, start);
    index = start + 2;
    while (index < command.length && command[index] !== "'") {
      if (command[index] !== '\\' || index + 1 >= command.length) {
        out += command[index];
        index += 1;
        continue;
      }
      const escape = command[index + 1]!;
      index += 2;
      const digits = (pattern: RegExp, most: number): string => {
        let taken = '';
        while (taken.length < most && index < command.length && pattern.test(command[index]!)) taken += command[index++];
        return taken;
      };
      if (escape === 'x' || escape === 'u' || escape === 'U') {
        const hex = digits(/[0-9a-fA-F]/, escape === 'x' ? 2 : escape === 'u' ? 4 : 8);
        out += hex === '' ? `\\${escape}` : String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff));
      } else if (escape >= '0' && escape <= '7') {
        index -= 1;
        out += String.fromCharCode(Number.parseInt(digits(/[0-7]/, 3), 8) & 0xff);
      } else if (escape === 'c' && index < command.length) {
        out += String.fromCharCode(command.charCodeAt(index++) & 0x1f);
      } else {
        out += simpleEscapes[escape] ?? `\\${escape}`;
      }
    }
    index += 1;
  }
  return out;
}
