/**
 * Which integrity rule a failed write broke, when it broke one the store turns into a Forge error:
 * a taken key (`unique`) or a missing owner (`foreign-key`).
 */
export function constraintViolation(error: unknown): 'unique' | 'foreign-key' | undefined {
  switch ((error as { code?: unknown } | null)?.code) {
    case 'SQLITE_CONSTRAINT_PRIMARYKEY':
    case 'SQLITE_CONSTRAINT_UNIQUE':
      return 'unique';
    case 'SQLITE_CONSTRAINT_FOREIGNKEY':
      return 'foreign-key';
    default:
      return undefined;
  }
}
