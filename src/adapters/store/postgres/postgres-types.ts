import pg from 'pg';

/** PostgreSQL's type ids (`pg_type.oid`) of the values read as JavaScript numbers. */
const INT8 = 20;
const NUMERIC = 1700;

/**
 * How the store's pool reads column values: as `pg` does, except BIGINT (the store's counts, tokens,
 * bytes and generated keys, and every COUNT) and NUMERIC (what SUM of a BIGINT column gives) become
 * numbers, as SQLite hands them over, rather than strings. The schema holds no value past 2^53.
 * Given to the pool itself, never set on `pg.types`, so other users of `pg` in the process keep theirs.
 */
export const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => ((oid === INT8 || oid === NUMERIC) && format !== 'binary' ? Number : pg.types.getTypeParser(oid, format))) as pg.CustomTypesConfig['getTypeParser'],
};
