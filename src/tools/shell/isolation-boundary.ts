import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { shellEnvironment } from './shell-environment.js';

/** A way to run a shell command cut off from the machine: `bwrap` (bubblewrap), or `unshare` with a setup script. */
export type IsolationKind = 'bwrap' | 'unshare';

/** Where one command runs: the workspace (the only folder it may write, besides a private /tmp) and its start folder inside it. */
export interface IsolatedCommand {
  readonly command: string;
  /** The workspace's real path. */
  readonly workspace: string;
  /** The real folder it starts in, inside the workspace. */
  readonly cwd: string;
  /**
   * Folders the command must not see at all, not even read-only (FORGE_HOME with its database and keys,
   * the workspace root with the other accounts' folders): each is covered by an empty read-only tmpfs.
   * The workspace stays reachable when it lies inside one of them; one inside the workspace is covered
   * inside it too. Absent ones are passed over.
   */
  readonly hidden?: readonly string[];
}

/**
 * A real isolation boundary on this host. A command run through `argv` has no network (a network
 * namespace of its own: not even the host's loopback), sees the host's file system read-only, writes only
 * its workspace and a private /tmp, sees a /dev of `null`, `zero`, `full`, `random` and `urandom` only, and
 * holds no capability (none can be regained by running a program). /run and /tmp are empty tmpfs, so the
 * sockets of services there (a database's, Docker's) cannot be reached.
 */
export interface IsolationBoundary {
  readonly kind: IsolationKind;
  /** The program and arguments that run `command.command` with `/bin/sh -c` inside the boundary. */
  argv(command: IsolatedCommand): Promise<readonly [string, ...string[]]>;
}

/**
 * Run by `/bin/sh` as root of a new user, mount and network namespace (`unshare -rnm`): `$1` the workspace,
 * `$2` the start folder, `$3` the command, then how many hidden folders outside the workspace follow and
 * those (covered before the workspace is bound: it may lie inside one), how many inside it follow and
 * those (covered after), then the mount points to make read-only (the covers among them: the workspace
 * may first need a folder made in one). Mounts stay private
 * to the namespace. The workspace is bound again from a descriptor opened before /tmp is covered (it may
 * live under /tmp); `mount -c` takes the descriptor's path as it is. Any step failing ends it with 125
 * before the command runs. The command gets no capability, and cannot get one (bounding set empty, no new
 * privileges), so it can undo none of this.
 */
const UNSHARE_SETUP = `set -e
ws="$1"; cwd="$2"; cmd="$3"; shift 3
hide() {
  count="$1"; shift
  while [ "$count" -gt 0 ]; do
    if [ -d "$1" ]; then mount -t tmpfs -o size=64k,mode=755 tmpfs "$1"; fi
    shift; count=$((count - 1))
  done
}
exec 8<"$ws"
mount --make-rprivate /
mount -t tmpfs -o mode=1777 tmpfs /tmp
if [ -d /run ]; then mount -t tmpfs -o size=1m,mode=755 tmpfs /run; fi
mkdir /tmp/.forge-dev
mount -t tmpfs -o size=64k,mode=755 tmpfs /tmp/.forge-dev
for device in null zero full random urandom; do : > /tmp/.forge-dev/$device; mount -c --bind /dev/$device /tmp/.forge-dev/$device; done
ln -s /proc/self/fd /tmp/.forge-dev/fd; ln -s fd/0 /tmp/.forge-dev/stdin; ln -s fd/1 /tmp/.forge-dev/stdout; ln -s fd/2 /tmp/.forge-dev/stderr
mkdir /tmp/.forge-dev/shm
mount --move /tmp/.forge-dev /dev
hide "$@"; shift $(($1 + 1))
mkdir -p "$ws"
mount -c --bind /proc/self/fd/8 "$ws"
exec 8<&-
hide "$@"; shift $(($1 + 1))
for point in "$@"; do mount -c -o remount,bind,ro "$point"; done
mount -c -o remount,bind,ro /dev
cd "$cwd"
unset OLDPWD
exec setpriv --no-new-privs --bounding-set=-all --inh-caps=-all --ambient-caps=-all -- /bin/sh -c "$cmd"
`;

/** The exit status of the setup when it failed before the command ran. */
export const ISOLATION_SETUP_FAILED = 125;

/**
 * `unshare -rnm` with the setup script above: util-linux only, where unprivileged user namespaces are
 * allowed. The mount points to make read-only are read for every command, so one mounted since is covered.
 */
export function unshareBoundary(): IsolationBoundary {
  return {
    kind: 'unshare',
    argv: async ({ command, workspace, cwd, hidden = [] }) => {
      const covered = ['/tmp', '/dev', '/run', workspace, ...hidden];
      const kept = (point: string) => !covered.some((folder) => within(point, folder));
      const { outer, inner } = coveredFolders(hidden, workspace);
      const covers = [...outer.filter((folder) => !['/tmp', '/dev', '/run'].some((replaced) => within(folder, replaced))), ...inner];
      return ['unshare', '--user', '--map-root-user', '--net', '--mount', '--', '/bin/sh', '-c', UNSHARE_SETUP, 'forge-shell', workspace, cwd, command, String(outer.length), ...outer, String(inner.length), ...inner, ...(await mountPoints()).filter(kept), ...covers];
    },
  };
}

/** bubblewrap: the same boundary from its own flags (a recursive read-only root, a new /dev, tmpfs over /tmp and /run). */
export function bwrapBoundary(): IsolationBoundary {
  return {
    kind: 'bwrap',
    argv: async ({ command, workspace, cwd, hidden = [] }) => [
      'bwrap',
      '--unshare-user-try',
      '--unshare-net',
      '--die-with-parent',
      '--ro-bind', '/', '/',
      '--dev', '/dev',
      '--tmpfs', '/tmp',
      '--tmpfs', '/run',
      ...coverFolders(coveredFolders(hidden, workspace).outer),
      '--bind', workspace, workspace,
      ...coverFolders(coveredFolders(hidden, workspace).inner),
      '--chdir', cwd,
      '--cap-drop', 'ALL',
      '--',
      '/bin/sh', '-c', command,
    ],
  };
}

/**
 * The folders to cover: those outside the workspace (covered before it is bound) and those inside it
 * (after), each once, and none inside another (the outer cover hides it already).
 */
function coveredFolders(hidden: readonly string[], workspace: string): { outer: string[]; inner: string[] } {
  const distinct = [...new Set(hidden)].filter((folder) => folder !== workspace);
  const outermost = (folders: string[]) => folders.filter((folder) => !folders.some((other) => other !== folder && within(folder, other)));
  return { outer: outermost(distinct.filter((folder) => !within(folder, workspace))), inner: outermost(distinct.filter((folder) => within(folder, workspace))) };
}

/** bwrap's flags that cover each folder with an empty read-only tmpfs. */
function coverFolders(folders: readonly string[]): string[] {
  return folders.flatMap((folder) => ['--tmpfs', folder, '--remount-ro', folder]);
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The mount points of this process's mount namespace, as `/proc/self/mountinfo` lists them (its octal escapes decoded). */
export async function mountPoints(): Promise<string[]> {
  const text = await readFile('/proc/self/mountinfo', 'utf8');
  const points = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (line.split(' ')[4] ?? '').replace(/\\([0-7]{3})/g, (_escape, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))));
  return [...new Set(points.filter((point) => point.startsWith('/')))];
}

/** How long a probe of a boundary may take before it counts as not working. */
const PROBE_TIMEOUT_MS = 15_000;

/**
 * Whether `boundary` works on this host: a command run through it writes its workspace, and what it
 * writes outside does not reach the host. A boundary whose program is missing, or that the kernel
 * refuses (user namespaces turned off, a container without them), fails the probe.
 */
export async function boundaryWorks(boundary: IsolationBoundary): Promise<boolean> {
  const folder = await realpath(await mkdtemp(join(tmpdir(), 'forge-isolation-probe-')));
  try {
    const outside = join(folder, 'outside');
    const workspace = join(folder, 'workspace');
    await mkdir(workspace);
    const [file, ...args] = await boundary.argv({ command: `echo ok > inside; echo no > ${outside}; exit 0`, workspace, cwd: workspace });
    const child = spawn(file, args, { env: shellEnvironment(workspace), stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    try {
      const [code] = (await Promise.race([once(child, 'exit'), once(child, 'error').then(() => [null])])) as [number | null];
      return code === 0 && (await readFile(join(workspace, 'inside'), 'utf8')) === 'ok\n' && !existsSync(outside);
    } finally {
      clearTimeout(timer);
    }
  } catch {
    return false;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Finds the boundary this host offers: the first of `candidates` that works; undefined when none does. */
export type IsolationDetector = () => Promise<IsolationBoundary | undefined>;

/** bwrap when it works here, else `unshare`; the probes run once per process, on first use. */
export const detectIsolationBoundary: IsolationDetector = memoized(async () => {
  for (const candidate of [bwrapBoundary(), unshareBoundary()]) {
    if (await boundaryWorks(candidate)) return candidate;
  }
  return undefined;
});

function memoized<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
