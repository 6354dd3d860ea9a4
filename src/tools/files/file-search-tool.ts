import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { compileLinearPattern, FileJailError, plainRelativePath, type FileJail } from '../../security/index.js';
import { FileSearchPatternError } from './file-tool-errors.js';
import type { FileToolSettings } from './file-tool-settings.js';
import { walkFolder, type WalkedEntry } from './folder-walk.js';
import { textLines, withoutLineBreak } from './text-lines.js';
import { workspaceJail } from './workspace-jail.js';

/** What `file_search` returns: each match as `path:line: text`, the text cut around the match. */
export interface FileSearchOutput {
  readonly files_searched: number;
  readonly truncated: boolean;
  readonly truncation?: string;
  /** Files and folders not (fully) searched, and why: at most 20 are named. */
  readonly skipped?: readonly string[];
  readonly matches: readonly string[];
}

const inputSchema = z.object({
  query: z.string().min(1).max(1000).describe('The text to find, or a regular expression when regex is true.'),
  path: z.string().default('.').describe('The folder (searched with everything inside) or file to search, relative to the workspace; default ".".'),
  regex: z.boolean().default(false).describe('Read query as a regular expression (JavaScript syntax without backreferences or lookaround; matched in linear time).'),
  ignore_case: z.boolean().default(false).describe('Match regardless of letter case.'),
  max_matches: z.number().int().min(1).max(500).default(50).describe('The most matching lines to return (default 50, at most 500).'),
});

const snippetCharacters = 200;
const maxSkippedNamed = 20;

/** Finds the query in lines of text. */
interface LineMatcher {
  /** Whether one line (without its line break) matches, and where the match is when that is known. */
  match(line: string): { readonly at: number } | undefined;
  /** False only when no line of `text` (several lines with their breaks) can match: the batch is skipped. */
  mayMatchIn(text: string): boolean;
}

/** `file_search({query, path?, regex?, ignore_case?, max_matches?})`: the lines of workspace files that match. */
export function fileSearchTool(settings: FileToolSettings) {
  const { maxSearchFiles, maxSearchFileBytes, maxSearchEntries } = settings.limits;
  return defineTool({
    name: 'file_search',
    description:
      'Search the text files under a workspace folder (or one file) for a literal text or a regular expression, line by line, like grep. ' +
      `Returns matching lines as "path:line: text", at most max_matches; binary files are skipped, .git is not searched, symlinks are not followed, ` +
      `at most ${maxSearchFiles} files and the first ${maxSearchFileBytes} bytes of each are searched.`,
    inputSchema,
    risk: 'low',
    sideEffect: 'read',
    external: true,
    async execute(input, context): Promise<FileSearchOutput> {
      const path = plainRelativePath(input.path);
      const matcher = lineMatcher(input.query, input.regex, input.ignore_case);
      const jail = await workspaceJail(context, settings);
      const found: string[] = [];
      const skipped: string[] = [];
      let filesSearched = 0;
      let entriesWalked = 0;
      let truncation: string | undefined;
      const walk = await filesUnder(jail, path);
      search: for await (const entry of walk.entries) {
        entriesWalked += 1;
        if (entriesWalked > maxSearchEntries) {
          truncation = `stopped after walking ${maxSearchEntries} files and folders; search a folder further down.`;
          break;
        }
        if (entry.type !== 'file') continue;
        if (filesSearched === maxSearchFiles) {
          truncation = `stopped after searching ${maxSearchFiles} files; search a folder further down.`;
          break;
        }
        filesSearched += 1;
        const file = textLines(jail.readChunks(entry.path), maxSearchFileBytes);
        let lineNumber = 0;
        try {
          for await (const batch of file.lines) {
            if (!matcher.mayMatchIn(batch.join(''))) {
              lineNumber += batch.length;
              continue;
            }
            for (const line of batch) {
              lineNumber += 1;
              const text = withoutLineBreak(line);
              const match = matcher.match(text);
              if (match === undefined) continue;
              if (found.length === input.max_matches) {
                truncation = `more than ${input.max_matches} matching lines; showing the first ${input.max_matches}. Narrow the query or the path, or raise max_matches.`;
                break search;
              }
              found.push(`${entry.path}:${lineNumber}: ${snippet(text, match.at)}`);
            }
          }
        } catch (error) {
          if (!(error instanceof FileJailError) || error.reason === 'aborted') throw error;
          skipped.push(error.message);
          continue;
        }
        if (file.cut) skipped.push(`${JSON.stringify(entry.path)}: only its first ${maxSearchFileBytes} bytes were searched.`);
      }
      skipped.push(...walk.skipped);
      const named = skipped.length > maxSkippedNamed ? [...skipped.slice(0, maxSkippedNamed), `and ${skipped.length - maxSkippedNamed} more`] : skipped;
      return {
        files_searched: filesSearched,
        truncated: truncation !== undefined,
        ...(truncation === undefined ? {} : { truncation }),
        ...(named.length === 0 ? {} : { skipped: named }),
        matches: found,
      };
    },
  });
}

/** Never a `RegExp` on the model's text: a regular expression is compiled for the linear-time engine. */
function lineMatcher(query: string, regex: boolean, ignoreCase: boolean): LineMatcher {
  if (regex) {
    const pattern = compileLinearPattern(ignoreCase ? `(?i)${query}` : query);
    if (pattern === undefined) throw new FileSearchPatternError(query);
    // Anchors and classes mean other things across lines, so every line is tested on its own.
    return { match: (line) => (pattern.test(line) ? { at: 0 } : undefined), mayMatchIn: () => true };
  }
  const needle = ignoreCase ? query.toLowerCase() : query;
  const find = (text: string) => (ignoreCase ? text.toLowerCase() : text).indexOf(needle);
  // A literal without a line break can only be found in several lines where it is in one of them.
  const singleLine = !needle.includes('\n') && !needle.includes('\r');
  return {
    match: (line) => {
      const at = find(line);
      return at === -1 ? undefined : { at };
    },
    mayMatchIn: (text) => !singleLine || find(text) !== -1,
  };
}

/** The files to search: everything under a folder, or the one file `path` names. */
async function filesUnder(jail: FileJail, path: string): Promise<{ entries: AsyncIterable<WalkedEntry>; skipped: readonly string[] }> {
  try {
    await jail.list(path);
  } catch (error) {
    if (error instanceof FileJailError && error.reason === 'not-a-directory') return { entries: oneFile(path), skipped: [] };
    throw error;
  }
  return walkFolder(jail, path, 'recursive');
}

async function* oneFile(path: string): AsyncGenerator<WalkedEntry> {
  yield { path, type: 'file' };
}

/** At most `snippetCharacters` of a line, starting a little before the match so it is in view. */
function snippet(text: string, at: number): string {
  if (text.length <= snippetCharacters) return text;
  const start = Math.max(0, Math.min(at - 40, text.length - snippetCharacters));
  return `${start > 0 ? '…' : ''}${text.slice(start, start + snippetCharacters)}${start + snippetCharacters < text.length ? '…' : ''}`;
}
