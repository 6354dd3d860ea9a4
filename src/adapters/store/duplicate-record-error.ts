import { ForgeError } from '../../core/index.js';

/**
 * A write tried to create a record whose key is already taken (a run id, an event's run and `seq`, a
 * step's run and index, a conversation id). Nothing was written; the existing record is unchanged.
 */
export class DuplicateRecordError extends ForgeError {
  /** What was being written: `run`, `event`, `step` or `conversation`. */
  readonly kind: string;
  /** The key that is taken, by field name as the Store interface spells it. */
  readonly key: Readonly<Record<string, string | number>>;

  constructor(kind: string, key: Readonly<Record<string, string | number>>) {
    const described = Object.entries(key)
      .map(([field, value]) => `${field} ${JSON.stringify(value)}`)
      .join(', ');
    super({ name: 'DuplicateRecordError', message: `Cannot write ${kind}: one with ${described} already exists.` });
    this.kind = kind;
    this.key = key;
  }
}
