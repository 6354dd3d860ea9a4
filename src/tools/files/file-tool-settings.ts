/** How much the file tools read, list and search in one call; past a limit they stop and say so. */
export interface FileToolLimits {
  /** Characters of file text one `file_read` returns (the model is shown about 12,000 characters of a result). */
  readonly maxReadCharacters: number;
  /** Bytes `file_read` reads through to reach the lines asked for. */
  readonly maxReadScanBytes: number;
  /** Files one `file_search` looks into. */
  readonly maxSearchFiles: number;
  /** Bytes of one file `file_search` looks into; the rest of a larger file is not searched. */
  readonly maxSearchFileBytes: number;
  /** Entries one folder may hold to be listed or searched (a larger folder is refused, not cut short). */
  readonly maxFolderEntries: number;
  /** Entries (files and folders) one `file_search` walks past before it stops. */
  readonly maxSearchEntries: number;
}

export const defaultFileToolLimits: FileToolLimits = {
  maxReadCharacters: 10_000,
  maxReadScanBytes: 16 * 1024 * 1024,
  maxSearchFiles: 5_000,
  maxSearchFileBytes: 4 * 1024 * 1024,
  maxFolderEntries: 10_000,
  maxSearchEntries: 50_000,
};

/** What every file tool is made with. */
export interface FileToolSettings {
  /** The installation's workspace folder, absolute; a run's `context.workspace` overrides it. */
  readonly workspace: string;
  readonly limits: FileToolLimits;
}
