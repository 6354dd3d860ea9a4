import { ForgeError } from '../../core/index.js';

/** `file_patch` found the text to replace not exactly once (and `all` was not set), so it changed nothing. */
export class FilePatchError extends ForgeError {
  readonly path: string;
  /** How many times `old` occurs in the file. */
  readonly occurrences: number;
  constructor(path: string, occurrences: number) {
    super({
      name: 'FilePatchError',
      message:
        occurrences === 0
          ? `${JSON.stringify(path)}: the text to replace does not occur in the file; nothing was changed.`
          : `${JSON.stringify(path)}: the text to replace occurs ${occurrences} times, so which one to change is unclear; nothing was changed.`,
      hint:
        occurrences === 0
          ? 'Read the file again (file_read) and copy the text exactly, spaces, tabs and line breaks included.'
          : 'Include more of the surrounding lines in `old` so it occurs exactly once, or set `all: true` to replace every occurrence.',
    });
    this.path = path;
    this.occurrences = occurrences;
  }
}

/** A `file_search` regular expression that cannot be matched in linear time, or is not valid. */
export class FileSearchPatternError extends ForgeError {
  readonly pattern: string;
  constructor(pattern: string) {
    super({
      name: 'FileSearchPatternError',
      message: `The pattern ${JSON.stringify(pattern)} is not a valid regular expression, or needs backreferences or lookaround, which are not supported.`,
      hint: 'Use a regular expression without backreferences and lookaround, or search for the literal text (regex: false).',
    });
    this.pattern = pattern;
  }
}

/** A file holds binary data (a NUL byte), which the text tools neither show nor change. */
export class BinaryFileError extends ForgeError {
  readonly path: string;
  constructor(path: string) {
    super({
      name: 'BinaryFileError',
      message: `${JSON.stringify(path)} is a binary file (it contains NUL bytes); only text files can be read or patched.`,
      hint: 'Choose a text file; file_list shows what the folder holds.',
    });
    this.path = path;
  }
}

/** `file_read` was asked for lines past the end of the file. */
export class FileLineRangeError extends ForgeError {
  readonly path: string;
  readonly startLine: number;
  readonly lineCount: number;
  constructor(path: string, startLine: number, lineCount: number) {
    super({
      name: 'FileLineRangeError',
      message: `${JSON.stringify(path)} has ${lineCount} line${lineCount === 1 ? '' : 's'}; reading from line ${startLine} finds nothing.`,
      hint: `Ask for a start_line between 1 and ${Math.max(lineCount, 1)}.`,
    });
    this.path = path;
    this.startLine = startLine;
    this.lineCount = lineCount;
  }
}
