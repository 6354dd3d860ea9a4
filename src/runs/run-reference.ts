import { ForgeError, NotFoundError, type RunRecord, type RunStore } from '../core/index.js';

/** How many candidates an ambiguous prefix error lists. */
const LISTED_CANDIDATES = 10;

/** A run id prefix that more than one stored run starts with. */
export class AmbiguousRunIdError extends ForgeError {
  readonly prefix: string;
  /** The runs it could mean, newest first (at most ten). */
  readonly candidates: readonly { readonly id: string; readonly task: string; readonly createdAt: string }[];
  constructor(prefix: string, candidates: readonly RunRecord[], more: boolean) {
    const lines = candidates.map((run) => `  ${run.id}  ${run.createdAt.slice(0, 19).replace('T', ' ')}  ${run.status}  ${run.task.length > 50 ? `${run.task.slice(0, 49)}…` : run.task}`);
    super({
      name: 'AmbiguousRunIdError',
      message: `Run id prefix "${prefix}" matches ${more ? `more than ${candidates.length}` : candidates.length} runs:\n${lines.join('\n')}`,
      hint: 'Give more characters of the id (see `forge runs list`).',
    });
    this.prefix = prefix;
    this.candidates = candidates.map((run) => ({ id: run.id, task: run.task, createdAt: run.createdAt }));
  }
}

/**
 * The stored run a reference names: the run with exactly that id, else the one run whose id starts
 * with it. No run is `NotFoundError`; several are `AmbiguousRunIdError`, listing them.
 */
export async function resolveRun(runs: RunStore, reference: string): Promise<RunRecord> {
  const exact = await runs.get(reference);
  if (exact !== undefined) return exact;
  const found = await runs.findByIdPrefix(reference, LISTED_CANDIDATES + 1);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new NotFoundError('run', reference, 'List runs with `forge runs list`; a unique prefix of an id is enough.');
  throw new AmbiguousRunIdError(reference, found.slice(0, LISTED_CANDIDATES), found.length > LISTED_CANDIDATES);
}
