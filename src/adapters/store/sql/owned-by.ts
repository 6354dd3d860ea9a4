import type { OwnedBy } from '../../../core/index.js';

/** The SQL condition (one `?`: the user id) that keeps one account's records; `includeUnowned` adds those stored without an account. */
export function ownedByCondition(ownedBy: OwnedBy): string {
  return ownedBy.includeUnowned ? '(user_id = ? OR user_id IS NULL)' : 'user_id = ?';
}
