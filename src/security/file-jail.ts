import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, stat, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ForgeError } from '../core/index.js';

/** Why the jail refused a path; stable codes a caller can branch on. */
export type FileJailRefusal =
  | 'invalid-path'
  | 'absolute-path'
  | 'parent-segment'
  | 'nul-byte'
  | 'outside-jail'
  | 'not-found'
  | 'not-a-file'
  | 'not-a-directory'
  | 'too-large'
  | 'quota-exceeded'
  | 'too-deep'
  | 'protected-name'
  | 'aborted'
  | 'io-error';

/**
 * A file operation the jail refused. `path` is the relative path exactly as the caller gave it: the
 * message never names the jail's absolute location on the host, because the caller is untrusted code.
 */
export class FileJailError extends ForgeError {
  readonly path: string;
  readonly reason: FileJailRefusal;
  constructor(path: string, reason: FileJailRefusal, message: string) {
    super({
      name: 'FileJailError',
      message: `${JSON.stringify(path)}: ${message}`,
      hint:
        reason === 'protected-name'
          ? 'Write somewhere else: protected entries (such as .git) belong to the program that manages them.'
          : 'Use relative paths with forward slashes inside the tool\'s own folder, without ".." segments.',
    });
    this.path = path;
    this.reason = reason;
  }
}

export interface FileJailLimits {
  /** Largest file `readFile` returns; bigger files are refused, never truncated. */
  readonly maxReadBytes: number;
  /** Largest text one `writeFile` call may write. */
  readonly maxWriteBytes: number;
  /**
   * Bytes all `writeFile` calls on this jail may write together, so a loop cannot fill the disk. Every
   * file or folder a write creates counts `bytesPerEntry` on top of its text, so empty entries cannot
   * flood the file system either.
   */
  readonly maxTotalWriteBytes: number;
  /** What creating one file or folder counts against `maxTotalWriteBytes`: one file-system block. */
  readonly bytesPerEntry: number;
  /** Path segments (folders and the file) a path may have; deeper paths are refused before anything is touched. */
  readonly maxDepth: number;
  /** Largest directory `list` describes; bigger directories are refused, never cut short. */
  readonly maxListEntries: number;
}

export const defaultFileJailLimits: FileJailLimits = {
  maxReadBytes: 1024 * 1024,
  maxWriteBytes: 1024 * 1024,
  maxTotalWriteBytes: 16 * 1024 * 1024,
  bytesPerEntry: 4096,
  maxDepth: 32,
  maxListEntries: 1000,
};

export interface FileJailOptions {
  /**
   * Ends the jail's work: once aborted, every operation, including one under way (between two steps of a
   * deep write, say), is refused with reason `aborted`. A sandbox run passes its lifetime here, so no file
   * work goes on after the run has ended.
   */
  readonly signal?: AbortSignal;
  /**
   * Names of entries writes may neither create, replace nor reach into, at any depth and whatever
   * symlink leads there (the workspace tools protect `.git`, whose config and hooks would run programs
   * the next time anyone uses git there). Names match as file systems that ignore case, trailing dots or
   * spaces, or Unicode joiners would match them, so `.GIT` and `.git.` are `.git` too. Reads are unaffected.
   */
  readonly protectedNames?: readonly string[];
}

export interface FileJailEntry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
}

/**
 * Text file access confined to one folder. Paths are relative, use `/`, at most `maxDepth` segments, and
 * may not contain `..` segments or NUL bytes; every access resolves symlinks and refuses any path whose real location is
 * outside the folder (for writes, each parent directory is checked before anything is created in it).
 * Every refusal is a `FileJailError`.
 */
export interface FileJail {
  /** The folder the jail confines access to, as given at creation. */
  readonly root: string;
  /** Reads a UTF-8 text file. */
  readFile(path: string): Promise<string>;
  /**
   * Reads a regular file's bytes in chunks, however large it is: the caller takes as much as it needs,
   * and stopping early (leaving the loop) closes the file. The checks run when iteration starts.
   */
  readChunks(path: string): AsyncIterable<Uint8Array>;
  /** Creates or replaces a UTF-8 text file, creating missing parent folders. */
  writeFile(path: string, text: string): Promise<void>;
  /** Lists a folder (the jail's own folder when `path` is omitted or "."), sorted by name. */
  list(path?: string): Promise<FileJailEntry[]>;
}

const maxPathLength = 1024;
const chunkBytes = 64 * 1024;

/** Creates a jail over `root`. The folder is created on the first write when it does not exist yet. */
export function createFileJail(root: string, limits: Partial<FileJailLimits> = {}, options: FileJailOptions = {}): FileJail {
  const effective: FileJailLimits = { ...defaultFileJailLimits, ...limits };
  let writtenBytes = 0;
  const segmentsOf = (path: unknown, segmentOptions?: { allowJailRoot?: boolean }) => checkedSegments(path, effective.maxDepth, segmentOptions);
  const ensureRunning = (path: string) => {
    if (options.signal?.aborted === true) throw new FileJailError(path, 'aborted', 'was left alone: the run this operation belonged to has ended.');
  };
  const protectedKeys = new Set((options.protectedNames ?? []).map(nameKey));
  const refuseProtected = (segments: readonly string[], path: string) => {
    if (segments.some((segment) => protectedKeys.has(nameKey(segment)))) {
      throw new FileJailError(path, 'protected-name', `is or lies inside a protected entry (${(options.protectedNames ?? []).join(', ')}); it cannot be written.`);
    }
  };
  const refuseProtectedLocation = (rootReal: string, real: string, path: string) => refuseProtected(relative(rootReal, real).split(sep), path);
  const quotaMessage = `would exceed the ${effective.maxTotalWriteBytes} bytes this tool may write in one run (each new file or folder counts ${effective.bytesPerEntry}).`;
  // Counts one new file or folder before it is created, so the quota stops a flood of empty entries.
  const chargeEntry = (path: string) => {
    ensureRunning(path);
    if (writtenBytes + effective.bytesPerEntry > effective.maxTotalWriteBytes) throw new FileJailError(path, 'quota-exceeded', quotaMessage);
    writtenBytes += effective.bytesPerEntry;
  };

  /** Opens an existing regular file inside the jail for reading; the caller closes it. */
  async function openRegularFile(path: string): Promise<{ handle: FileHandle; size: number }> {
    const segments = segmentsOf(path);
    if (segments.length === 0) throw new FileJailError(path, 'not-a-file', 'names the tool folder itself, not a file.');
    ensureRunning(path);
    const rootReal = await existingRoot(root, path);
    const real = await realLocationInside(rootReal, join(rootReal, ...segments), path);
    const handle = await openRefusingSymlink(real, constants.O_RDONLY, path);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new FileJailError(path, 'not-a-file', 'is not a regular file.');
      return { handle, size: info.size };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async function readFile(path: string): Promise<string> {
    const { handle, size } = await openRegularFile(path);
    try {
      if (size > effective.maxReadBytes) {
        throw new FileJailError(path, 'too-large', `is ${size} bytes; files larger than ${effective.maxReadBytes} bytes cannot be read.`);
      }
      return new TextDecoder('utf-8').decode(await handle.readFile());
    } finally {
      await handle.close();
    }
  }

  async function* readChunks(path: string): AsyncGenerator<Uint8Array> {
    const { handle } = await openRegularFile(path);
    try {
      for (;;) {
        ensureRunning(path);
        const buffer = Buffer.allocUnsafe(chunkBytes);
        const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }

  async function writeFile(path: string, text: string): Promise<void> {
    if (typeof text !== 'string') throw new FileJailError(path, 'invalid-path', 'writeFile needs the file content as a string.');
    const segments = segmentsOf(path);
    refuseProtected(segments, path);
    const name = segments.pop();
    if (name === undefined) throw new FileJailError(path, 'not-a-file', 'names the tool folder itself, not a file.');
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > effective.maxWriteBytes) {
      throw new FileJailError(path, 'too-large', `is ${bytes} bytes of text; one write may hold at most ${effective.maxWriteBytes} bytes.`);
    }
    if (writtenBytes + bytes > effective.maxTotalWriteBytes) throw new FileJailError(path, 'quota-exceeded', quotaMessage);
    ensureRunning(path);
    await mkdir(root, { recursive: true });
    const rootReal = await realpath(root);
    const parentReal = await ensureDirectoriesInside(rootReal, segments, path, {
      beforeCreate: () => chargeEntry(path),
      verify: (real) => refuseProtectedLocation(rootReal, real, path),
    });
    const target = await writableTarget(rootReal, join(parentReal, name), path);
    refuseProtectedLocation(rootReal, target.location, path);
    if (target.created) chargeEntry(path);
    if (writtenBytes + bytes > effective.maxTotalWriteBytes) throw new FileJailError(path, 'quota-exceeded', quotaMessage);
    ensureRunning(path);
    const handle = await openRefusingSymlink(target.location, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, path);
    try {
      if (!(await handle.stat()).isFile()) throw new FileJailError(path, 'not-a-file', 'is not a regular file.');
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
    writtenBytes += bytes;
  }

  async function list(path = '.'): Promise<FileJailEntry[]> {
    const segments = segmentsOf(path, { allowJailRoot: true });
    ensureRunning(path);
    const rootReal = await existingRoot(root, path);
    const real = await realLocationInside(rootReal, join(rootReal, ...segments), path);
    const info = await stat(real);
    if (!info.isDirectory()) throw new FileJailError(path, 'not-a-directory', 'is not a folder.');
    const entries = await readdir(real, { withFileTypes: true });
    if (entries.length > effective.maxListEntries) {
      throw new FileJailError(path, 'too-large', `holds ${entries.length} entries; folders with more than ${effective.maxListEntries} cannot be listed.`);
    }
    return entries
      .map((entry): FileJailEntry => ({
        name: entry.name,
        type: entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'other',
      }))
      .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  }

  return {
    root,
    readFile: (path) => withoutHostDetails(path, () => readFile(path)),
    readChunks: (path) => chunksWithoutHostDetails(path, readChunks(path)),
    writeFile: (path, text) => withoutHostDetails(path, () => writeFile(path, text)),
    list: (path) => withoutHostDetails(path ?? '.', () => list(path)),
  };
}

/**
 * Node's own file errors name absolute host paths; the caller is untrusted, so anything that is not
 * already a `FileJailError` is reduced to its error code.
 */
async function withoutHostDetails<Result>(path: string, operation: () => Promise<Result>): Promise<Result> {
  try {
    return await operation();
  } catch (error) {
    throw hostlessError(path, error);
  }
}

async function* chunksWithoutHostDetails(path: string, chunks: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch (error) {
    throw hostlessError(path, error);
  }
}

function hostlessError(path: string, error: unknown): FileJailError {
  if (error instanceof FileJailError) return error;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return new FileJailError(String(path), 'io-error', `could not be accessed (${typeof code === 'string' ? code : 'unknown error'}).`);
}

/**
 * A path in its plain form, segments joined by "/" ("." for the jail's folder itself), after the checks
 * every jail operation applies to it before touching anything (relative, no "..", no NUL, no backslash,
 * at most `maxDepth` segments); a `FileJailError` otherwise. For paths another program will open inside
 * the folder (git's pathspecs), which then sees exactly the path that was checked.
 */
export function plainRelativePath(path: string, maxDepth = defaultFileJailLimits.maxDepth): string {
  const segments = checkedSegments(path, maxDepth, { allowJailRoot: true });
  return segments.length === 0 ? '.' : segments.join('/');
}

/** A caller's path as plain segments, refused when it has more than `maxDepth` of them. */
function checkedSegments(path: unknown, maxDepth: number, options?: { allowJailRoot?: boolean }): string[] {
  const segments = relativeSegments(path, options);
  if (segments.length > maxDepth) throw new FileJailError(String(path), 'too-deep', `is ${segments.length} segments deep; paths may have at most ${maxDepth}.`);
  return segments;
}

// Unicode joiners and direction marks HFS+ ignores in names.
const ignoredInNames = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** A name as a case-insensitive file system that drops trailing dots and spaces (NTFS) and joiners (HFS+) sees it. */
function nameKey(name: string): string {
  return name.replace(ignoredInNames, '').toLowerCase().replace(/[. ]+$/, '');
}

/** Splits a caller's path into plain segments, refusing every form that could name a place outside. */
function relativeSegments(path: unknown, options: { allowJailRoot?: boolean } = {}): string[] {
  const shown = typeof path === 'string' ? path : String(path);
  if (typeof path !== 'string') throw new FileJailError(shown, 'invalid-path', 'a path must be a string.');
  if (path.includes('\0')) throw new FileJailError(path, 'nul-byte', 'contains a NUL byte.');
  if (path.length > maxPathLength) throw new FileJailError(path, 'invalid-path', `is longer than ${maxPathLength} characters.`);
  if (path.includes('\\')) throw new FileJailError(path, 'invalid-path', 'contains a backslash; separate folders with "/".');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) throw new FileJailError(path, 'absolute-path', 'is absolute; only paths relative to the tool folder are allowed.');
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new FileJailError(path, 'parent-segment', 'contains a ".." segment; paths may not climb out of the tool folder.');
  if (path === '' && options.allowJailRoot !== true) throw new FileJailError(path, 'invalid-path', 'is empty.');
  return segments;
}

async function existingRoot(root: string, path: string): Promise<string> {
  try {
    return await realpath(root);
  } catch (error) {
    if (isNodeError(error, 'ENOENT')) throw new FileJailError(path, 'not-found', 'does not exist (the tool folder is still empty).');
    throw error;
  }
}

/** The real (symlink-free) location of an existing path, refused unless it lies inside the jail. */
async function realLocationInside(rootReal: string, candidate: string, path: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(candidate);
  } catch (error) {
    if (isNodeError(error, 'ENOENT') || isNodeError(error, 'ENOTDIR')) throw new FileJailError(path, 'not-found', 'does not exist.');
    if (isNodeError(error, 'ELOOP')) throw new FileJailError(path, 'outside-jail', 'is a symlink loop.');
    throw error;
  }
  if (!isInside(rootReal, real)) throw new FileJailError(path, 'outside-jail', 'resolves (through a symlink) to a place outside the tool folder.');
  return real;
}

/**
 * Walks the parent folders of a write one segment at a time: an existing segment must really be a folder
 * inside the jail (a symlinked folder pointing out is refused), a missing one is created inside a folder
 * that was just verified, after `beforeCreate` (which counts it, and may refuse) allows it; `verify` may
 * refuse the real location of every folder that was already there. Returns the real location of the
 * innermost folder.
 */
async function ensureDirectoriesInside(
  rootReal: string,
  segments: readonly string[],
  path: string,
  checks: { readonly beforeCreate: () => void; readonly verify: (real: string) => void },
): Promise<string> {
  let current = rootReal;
  for (const segment of segments) {
    const next = join(current, segment);
    const existing = await lstat(next).catch((error: unknown) => {
      if (isNodeError(error, 'ENOENT')) return undefined;
      throw error;
    });
    if (existing !== undefined) {
      current = await existingDirectoryInside(rootReal, next, segment, path);
      checks.verify(current);
      continue;
    }
    checks.beforeCreate();
    if (await createdDirectory(next)) {
      current = next;
      continue;
    }
    current = await existingDirectoryInside(rootReal, next, segment, path);
    checks.verify(current);
  }
  return current;
}

/** The real location of a folder that already exists, refused unless it is a folder inside the jail. */
async function existingDirectoryInside(rootReal: string, location: string, segment: string, path: string): Promise<string> {
  const real = await realLocationInside(rootReal, location, path);
  if (!(await stat(real)).isDirectory()) throw new FileJailError(path, 'not-a-directory', `has "${segment}" as a folder, but it is a file.`);
  return real;
}

/** Creates one folder; false when something appeared there meanwhile (then it is verified like any other). */
async function createdDirectory(location: string): Promise<boolean> {
  try {
    await mkdir(location);
    return true;
  } catch (error) {
    if (isNodeError(error, 'EEXIST')) return false;
    throw error;
  }
}

/**
 * Where a write really lands: the file itself, or, when it is a symlink, its target if that is inside;
 * `created` when no file is there yet, so the write will create one.
 */
async function writableTarget(rootReal: string, candidate: string, path: string): Promise<{ location: string; created: boolean }> {
  const existing = await lstat(candidate).catch((error: unknown) => {
    if (isNodeError(error, 'ENOENT')) return undefined;
    throw error;
  });
  if (existing === undefined) return { location: candidate, created: true };
  if (existing.isSymbolicLink()) {
    try {
      return { location: await realLocationInside(rootReal, candidate, path), created: false };
    } catch (error) {
      // A dangling symlink would let O_CREAT create its target wherever it points.
      if (error instanceof FileJailError && error.reason === 'not-found') {
        throw new FileJailError(path, 'outside-jail', 'is a symlink to a missing target; writing through it is refused.');
      }
      throw error;
    }
  }
  if (existing.isDirectory()) throw new FileJailError(path, 'not-a-file', 'is a folder.');
  return { location: candidate, created: false };
}

/**
 * Opens without following a symlink in the last segment. The real location was checked just before;
 * this closes the window in which the final segment could have been swapped for a link. Non-blocking,
 * so a FIFO (or a device) opens or fails at once instead of holding a thread until a peer appears; the
 * caller then refuses anything that is not a regular file.
 */
async function openRefusingSymlink(real: string, flags: number, path: string): Promise<FileHandle> {
  try {
    return await open(real, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  } catch (error) {
    if (isNodeError(error, 'ENXIO')) throw new FileJailError(path, 'not-a-file', 'is not a regular file.');
    if (isNodeError(error, 'ELOOP')) throw new FileJailError(path, 'outside-jail', 'became a symlink while it was being opened.');
    if (isNodeError(error, 'ENOENT')) throw new FileJailError(path, 'not-found', 'does not exist.');
    if (isNodeError(error, 'EISDIR')) throw new FileJailError(path, 'not-a-file', 'is a folder.');
    throw error;
  }
}

function isInside(rootReal: string, real: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(sep) ? rootReal : rootReal + sep);
}

function isNodeError(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
