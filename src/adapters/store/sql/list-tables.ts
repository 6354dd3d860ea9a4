import { readNumber, readText } from './row-values.js';
import type { SqlAccess } from './sql-access.js';
import type { TableCatalog, TableShape } from './table-catalog.js';

/** The bookkeeping of migrations: every store has it from opening on, so it is never anything's data. */
const BOOKKEEPING = 'schema_migrations';

/**
 * Every table of the store's schema but the migrations' bookkeeping, read from the engine's own
 * catalog, in dependency order: a table comes after every table its foreign keys point at (so loading
 * them in this order never meets a missing owner), otherwise by name. Throws when foreign keys form a
 * cycle, which Forge's schema never has.
 */
export async function listTables(sql: SqlAccess, catalog: TableCatalog): Promise<TableShape[]> {
  const [columns, references] = await sql.readTogether([{ sql: catalog.columnsQuery }, { sql: catalog.referencesQuery }]);
  const shapes = new Map<string, { columns: string[]; key: { column: string; position: number }[]; generatedKey: string | undefined; references: Set<string> }>();
  for (const row of columns!.rows) {
    const name = readText(row, 'table_name');
    if (name === BOOKKEEPING) continue;
    const shape = shapes.get(name) ?? { columns: [], key: [], generatedKey: undefined, references: new Set<string>() };
    shapes.set(name, shape);
    const column = readText(row, 'column_name');
    shape.columns.push(column);
    const position = readNumber(row, 'key_position');
    if (position > 0) shape.key.push({ column, position });
    if (readNumber(row, 'generated') === 1) shape.generatedKey = column;
  }
  for (const row of references!.rows) {
    const referenced = readText(row, 'referenced_table');
    const shape = shapes.get(readText(row, 'table_name'));
    if (shape !== undefined && referenced !== readText(row, 'table_name')) shape.references.add(referenced);
  }
  const tables = [...shapes.entries()]
    .map(([name, shape]): TableShape => ({
      name,
      columns: shape.columns,
      key: shape.key.sort((left, right) => left.position - right.position).map((part) => part.column),
      generatedKey: shape.generatedKey,
      references: [...shape.references].filter((referenced) => shapes.has(referenced)).sort(),
    }))
    .sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  return dependencyOrder(tables);
}

function dependencyOrder(tables: readonly TableShape[]): TableShape[] {
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  let waiting = [...tables];
  while (waiting.length > 0) {
    const ready = waiting.filter((table) => table.references.every((referenced) => placed.has(referenced)));
    if (ready.length === 0) throw new Error(`The foreign keys of ${waiting.map((table) => table.name).join(', ')} form a cycle; no table can be loaded first.`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    waiting = waiting.filter((table) => !placed.has(table.name));
  }
  return ordered;
}
