import { z } from 'zod';
import { defineTool } from '../../core/index.js';
import { plainRelativePath } from '../../security/index.js';
import { BinaryFileError, FileLineRangeError } from './file-tool-errors.js';
import type { FileToolSettings } from './file-tool-settings.js';
import { textLines } from './text-lines.js';
import { workspaceJail } from './workspace-jail.js';

/**
 * What `file_read` returns. `content` is the file's text from `start_line` to `end_line`, line breaks
 * as in the file. When `truncated`, `truncation` says why and `next_start_line` (when there is more to
 * read) is where to go on; these come before `content`, so they stay visible even when the result is cut.
 */
export interface FileReadOutput {
  readonly path: string;
  readonly start_line: number;
  readonly end_line: number;
  /** The number of lines in the file, known when the read went to its end. */
  readonly total_lines?: number;
  readonly truncated: boolean;
  readonly truncation?: string;
  readonly next_start_line?: number;
  readonly content: string;
}

const inputSchema = z
  .object({
    path: z.string().min(1).describe('The file, relative to the workspace folder (e.g. "src/index.ts").'),
    start_line: z.number().int().min(1).optional().describe('The first line to read (1-based); default 1.'),
    end_line: z.number().int().min(1).optional().describe('The last line to read, inclusive; default: as far as the size cap allows.'),
  })
  .refine((input) => input.end_line === undefined || input.end_line >= (input.start_line ?? 1), { message: 'end_line must not be before start_line', path: ['end_line'] });

/** `file_read({path, start_line?, end_line?})`: a text file of the workspace, or some of its lines. */
export function fileReadTool(settings: FileToolSettings) {
  const { maxReadCharacters, maxReadScanBytes } = settings.limits;
  return defineTool({
    name: 'file_read',
    description:
      `Read a text file in the workspace folder, optionally only lines start_line to end_line. At most ${maxReadCharacters} characters come back; ` +
      'when the file goes on, the result says truncated and gives next_start_line to read on from. Binary files are refused.',
    inputSchema,
    risk: 'low',
    sideEffect: 'read',
    external: true,
    async execute(input, context): Promise<FileReadOutput> {
      const path = plainRelativePath(input.path);
      const jail = await workspaceJail(context, settings);
      const file = textLines(jail.readChunks(path), maxReadScanBytes);
      const startLine = input.start_line ?? 1;
      let lineNumber = 0;
      let content = '';
      let stop: { truncation: string; nextStartLine: number } | undefined;
      let endReached = false;
      reading: for await (const batch of file.lines) {
        for (const line of batch) {
          lineNumber += 1;
          if (lineNumber < startLine) continue;
          if (content.length + line.length > maxReadCharacters) {
            stop =
              content === ''
                ? { truncation: `line ${lineNumber} is longer than ${maxReadCharacters} characters; only its beginning is shown.`, nextStartLine: lineNumber + 1 }
                : { truncation: `stopped at the ${maxReadCharacters}-character cap; read on from line ${lineNumber}.`, nextStartLine: lineNumber };
            if (content === '') content = prefixWithoutSplitPair(line, maxReadCharacters);
            break reading;
          }
          content += line;
          if (lineNumber === input.end_line) {
            endReached = true;
            break reading;
          }
        }
      }
      if (file.binary) throw new BinaryFileError(path);
      const atEndOfFile = stop === undefined && !endReached;
      if (atEndOfFile && !file.cut && lineNumber < startLine && startLine > 1) throw new FileLineRangeError(path, startLine, lineNumber);
      const lastLine = stop === undefined ? Math.min(lineNumber, input.end_line ?? lineNumber) : stop.nextStartLine - 1;
      const base = { path, start_line: startLine, end_line: Math.max(lastLine, startLine - 1) };
      if (stop !== undefined) return { ...base, truncated: true, truncation: stop.truncation, next_start_line: stop.nextStartLine, content };
      if (atEndOfFile && file.cut) {
        return { ...base, truncated: true, truncation: `only the first ${maxReadScanBytes} bytes of the file can be read; the lines after them were not.`, content };
      }
      return atEndOfFile ? { ...base, total_lines: lineNumber, truncated: false, content } : { ...base, truncated: false, content };
    },
  });
}

/** The first `limit` characters of `text`, one fewer when the cut would split a surrogate pair. */
function prefixWithoutSplitPair(text: string, limit: number): string {
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}
