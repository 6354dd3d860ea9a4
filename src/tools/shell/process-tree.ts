import { readFileSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** What /proc says about one process. */
interface ProcessStatus {
  readonly pid: number;
  readonly parent: number;
  readonly group: number;
  readonly session: number;
  /** When it started, in clock ticks since boot. */
  readonly startTime: number;
  /** Dead, waiting only for its parent (or init) to collect it: it runs nothing any more. */
  readonly dead: boolean;
}

/**
 * How a command's processes are recognised: the shell's pid (it leads its own session and process
 * group, being spawned detached) and the link text of a descriptor every process it starts inherits.
 */
export interface CommandIdentity {
  readonly root: number;
  /** The shell's start time (clock ticks since boot): nothing of the command started earlier. */
  readonly startTime: number;
  /** What `/proc/<pid>/fd/<n>` reads for the inherited descriptor. */
  readonly marker: string;
}

// Each bound only stops a loop that cannot end, e.g. processes forking faster than they are found.
const maxLooks = 50;
const maxKillRounds = 5;
const deathWait = { totalMs: 5_000, stepMs: 10 };

/**
 * Kills every process the command started and waits until each has died. Found are the shell, every
 * process in its session or process group, every descendant of those, and every process holding the
 * marker descriptor (which still finds one that left with `setsid` after its parent ended). They are
 * first stopped (SIGSTOP, looking again until a look finds none new), so none can fork or go on with
 * its script while the others are killed; then all get SIGKILL. A process that both left the session
 * and closed the marker descriptor cannot be found; nor can one running as another user be killed.
 */
export async function killCommandProcesses(identity: CommandIdentity): Promise<void> {
  for (let round = 0; round < maxKillRounds; round++) {
    const stopped = await stopCommandProcesses(identity);
    if (stopped.size === 0) return;
    for (const pid of stopped) signal(pid, 'SIGKILL');
    signal(-identity.root, 'SIGKILL');
    await untilDead(stopped);
  }
}

/** Stops the command's processes until a fresh look finds no running one; returns all it stopped. */
async function stopCommandProcesses(identity: CommandIdentity): Promise<Set<number>> {
  const stopped = new Set<number>();
  signal(-identity.root, 'SIGSTOP');
  for (let look = 0; look < maxLooks; look++) {
    const found = (await commandProcesses(identity)).filter((pid) => !stopped.has(pid));
    if (found.length === 0) break;
    for (const pid of found) {
      signal(pid, 'SIGSTOP');
      stopped.add(pid);
    }
  }
  return stopped;
}

/** The live processes of the command, as `killCommandProcesses` describes them. */
async function commandProcesses(identity: CommandIdentity): Promise<number[]> {
  // Whatever started before the shell is not the command's, even when it reuses a pid the command had.
  const table = (await processTable()).filter((status) => !status.dead && status.startTime >= identity.startTime);
  const members = new Set<number>();
  for (const status of table) {
    // The shell leads its group and session, so this finds it too.
    if (status.group === identity.root || status.session === identity.root) members.add(status.pid);
  }
  const holders = await Promise.all(table.map(async (status) => ((await holdsMarker(status.pid, identity.marker)) ? status.pid : undefined)));
  for (const pid of holders) if (pid !== undefined) members.add(pid);
  return [...withDescendants(members, table)];
}

/** `members` and, transitively, every process whose parent is one of them. */
function withDescendants(members: ReadonlySet<number>, table: readonly ProcessStatus[]): Set<number> {
  const childrenOf = new Map<number, number[]>();
  for (const status of table) childrenOf.set(status.parent, [...(childrenOf.get(status.parent) ?? []), status.pid]);
  const found = new Set(members);
  const pending = [...members];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    for (const child of childrenOf.get(pid) ?? []) {
      if (found.has(child)) continue;
      found.add(child);
      pending.push(child);
    }
  }
  return found;
}

async function processTable(): Promise<ProcessStatus[]> {
  const names = await readdir('/proc');
  const statuses = await Promise.all(names.filter((name) => /^\d+$/.test(name)).map((name) => processStatus(Number(name))));
  return statuses.filter((status): status is ProcessStatus => status !== undefined);
}

/**
 * The start time of a process just spawned. Read synchronously so it is read before the event loop can
 * collect the process (a dead child's /proc entry lasts until then); 0 (anything may be the command's)
 * when it cannot be read.
 */
export function startTimeOf(pid: number): number {
  try {
    return parseStatus(pid, readFileSync(`/proc/${pid}/stat`, 'utf8')).startTime;
  } catch {
    return 0;
  }
}

/** The process's status, or `undefined` once it is gone. */
async function processStatus(pid: number): Promise<ProcessStatus | undefined> {
  try {
    return parseStatus(pid, await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Reads /proc/<pid>/stat (proc(5)): fields 3 (state), 4 to 6 (parent, group, session) and 22 (start time). */
function parseStatus(pid: number, stat: string): ProcessStatus {
  // The command name (in parentheses) may itself hold spaces and parentheses; the fields follow the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '';
  return {
    pid,
    parent: Number(fields[1]),
    group: Number(fields[2]),
    session: Number(fields[3]),
    startTime: Number(fields[19]),
    dead: state === 'Z' || state === 'X' || state === 'x',
  };
}

async function holdsMarker(pid: number, marker: string): Promise<boolean> {
  let descriptors: string[];
  try {
    descriptors = await readdir(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  const links = await Promise.all(descriptors.map((descriptor) => readlink(`/proc/${pid}/fd/${descriptor}`).catch(() => '')));
  return links.includes(marker);
}

/** Waits (bounded) until every one of the processes has died. */
async function untilDead(pids: ReadonlySet<number>): Promise<void> {
  const deadline = performance.now() + deathWait.totalMs;
  let living = [...pids];
  while (performance.now() < deadline) {
    const statuses = await Promise.all(living.map((pid) => processStatus(pid)));
    living = living.filter((_pid, index) => statuses[index]?.dead === false);
    if (living.length === 0) return;
    await delay(deathWait.stepMs);
  }
}

/** Sends a signal, ignoring a process that is already gone or not ours to signal. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: it ended meanwhile; EPERM: it runs as another user (a setuid program), out of our reach.
  }
}
