/**
 * Which integrity rule a failed write broke, when it broke one the store turns into a Forge error:
 * a taken key (`unique`) or a missing owner (`foreign-key`). Reads the code of either engine: SQLite's
 * extended result codes and PostgreSQL's SQLSTATE (23505 unique_violation, 23503 foreign_key_violation).
 */
export function constraintViolation(error: unknown): 'unique' | 'foreign-key' | undefined {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
    case 'SQLITE_CONSTRAINT_UNIQUE':
    case '23505':
      return 'unique';
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
    case '23503':
      return 'foreign-key';
    default:
      return undefined;
  }
}
