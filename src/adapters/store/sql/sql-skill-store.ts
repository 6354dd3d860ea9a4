import { NotFoundError, type NewSkill, type SkillRecord, type SkillStatus, type SkillStore, type SkillVersionRecord } from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { fromJudgedJsonColumn, toJsonColumn } from '../json-column.js';
import { constraintViolation } from './constraint-violation.js';
import { readNullableText, readText } from './row-values.js';
import type { SqlAccess, SqlRow, SqlStatement } from './sql-access.js';

const currentColumns = 's.id, s.name, s.description, s.document, s.status, s.stale_reason, s.current_version AS version, s.current_version, s.user_id, s.created_at, s.updated_at';
const versionedColumns = 's.id, s.name, s.description, v.document, s.status, s.stale_reason, v.version, s.current_version, s.user_id, s.created_at, s.updated_at';

/**
 * Skills in `skills` (one row each, addressed by id or by their unique name, holding the current
 * document) and their immutable versions in `skill_versions`. A save is one transaction: the skill row,
 * the new version row and the current-version pointer change together or not at all.
 */
export class SqlSkillStore implements SkillStore {
  constructor(private readonly sql: SqlAccess) {}

  async save(skill: NewSkill): Promise<SkillRecord> {
    const now = new Date().toISOString();
    const document = toJsonColumn(skill.document);
    const explicitParent = skill.parentVersion !== undefined;
    // Saving under a taken name keeps that skill's id and creation time, so anything that points at the
    // id keeps working; the new document becomes its next version, and a re-recorded skill is active again.
    const results = await this.sql.write(
      asSteps([
        {
          sql: `INSERT INTO skills (id, name, description, document, status, stale_reason, user_id, created_at, updated_at)
                VALUES (?, ?, ?, ?, 'active', NULL, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET description = excluded.description, document = excluded.document,
                  status = 'active', stale_reason = NULL, updated_at = excluded.updated_at`,
          args: [skill.id, skill.name, skill.description, document, skill.userId ?? null, now, now],
        },
        {
          sql: `INSERT INTO skill_versions (skill_id, version, document, note, parent_version, created_at)
                SELECT s.id,
                  COALESCE((SELECT MAX(v.version) FROM skill_versions v WHERE v.skill_id = s.id), 0) + 1,
                  ?, ?,
                  CASE WHEN ? = 1 THEN ? WHEN EXISTS (SELECT 1 FROM skill_versions v WHERE v.skill_id = s.id) THEN s.current_version ELSE NULL END,
                  ?
                FROM skills s WHERE s.name = ?`,
          args: [document, skill.note, explicitParent ? 1 : 0, skill.parentVersion ?? null, now, skill.name],
        },
        {
          sql: 'UPDATE skills SET current_version = (SELECT MAX(v.version) FROM skill_versions v WHERE v.skill_id = skills.id) WHERE name = ?',
          args: [skill.name],
        },
        { sql: `SELECT ${currentColumns} FROM skills s WHERE s.name = ?`, args: [skill.name] },
      ]),
    );
    return skillFromRow(results[3]!.rows[0]!);
  }

  async get(idOrName: string, version?: number): Promise<SkillRecord | undefined> {
    const result = await this.sql.read({
      sql: `SELECT ${versionedColumns} FROM skills s JOIN skill_versions v ON v.skill_id = s.id AND v.version = COALESCE(?, s.current_version)
            WHERE s.id = ? OR s.name = ? ORDER BY s.id = ? DESC LIMIT 1`,
      args: [version ?? null, idOrName, idOrName, idOrName],
    });
    const row = result.rows[0];
    return row === undefined ? undefined : skillFromRow(row);
  }

  async versions(idOrName: string): Promise<SkillVersionRecord[]> {
    const result = await this.sql.read({
      sql: `SELECT v.skill_id, v.version, v.document, v.note, v.parent_version, v.created_at FROM skill_versions v
            WHERE v.skill_id = (SELECT s.id FROM skills s WHERE s.id = ? OR s.name = ? ORDER BY s.id = ? DESC LIMIT 1) ORDER BY v.version`,
      args: [idOrName, idOrName, idOrName],
    });
    return result.rows.map((row) => ({
      skillId: readText(row, 'skill_id'),
      version: Number(row['version']),
      document: fromJudgedJsonColumn(readText(row, 'document')),
      note: readText(row, 'note'),
      parentVersion: row['parent_version'] === null ? null : Number(row['parent_version']),
      createdAt: readText(row, 'created_at'),
    }));
  }

  async list(): Promise<SkillRecord[]> {
    const result = await this.sql.read(`SELECT ${currentColumns} FROM skills s ORDER BY s.ordinal`);
    return result.rows.map(skillFromRow);
  }

  async setStatus(idOrName: string, status: SkillStatus, reason: string | null): Promise<SkillRecord> {
    const existing = await this.get(idOrName);
    if (existing === undefined) throw new NotFoundError('skill', idOrName, 'List the stored skills with `forge skill list`.', 'name or id');
    await this.sql.write(
      asSteps([
        {
          sql: 'UPDATE skills SET status = ?, stale_reason = ?, updated_at = ? WHERE id = ?',
          args: [status, status === 'active' ? null : reason, new Date().toISOString(), existing.id],
        },
      ]),
    );
    return (await this.get(existing.id))!;
  }

  async rename(idOrName: string, name: string): Promise<SkillRecord> {
    const existing = await this.get(idOrName);
    if (existing === undefined) throw new NotFoundError('skill', idOrName, 'List the stored skills with `forge skill list`.', 'name or id');
    await this.sql.write([
      {
        statement: { sql: 'UPDATE skills SET name = ?, updated_at = ? WHERE id = ?', args: [name, new Date().toISOString(), existing.id] },
        onError: (error) => (constraintViolation(error) === 'unique' ? new DuplicateRecordError('skill', { name }) : error),
      },
    ]);
    return (await this.get(existing.id))!;
  }

  async delete(idOrName: string): Promise<boolean> {
    const existing = await this.get(idOrName);
    if (existing === undefined) return false;
    await this.sql.write(
      asSteps([
        { sql: 'DELETE FROM skill_versions WHERE skill_id = ?', args: [existing.id] },
        { sql: 'DELETE FROM skills WHERE id = ?', args: [existing.id] },
      ]),
    );
    return true;
  }
}

function asSteps(statements: readonly SqlStatement[]) {
  return statements.map((statement) => ({ statement }));
}

function skillFromRow(row: SqlRow): SkillRecord {
  return {
    id: readText(row, 'id'),
    name: readText(row, 'name'),
    description: readText(row, 'description'),
    document: fromJudgedJsonColumn(readText(row, 'document')),
    status: readText(row, 'status') as SkillStatus,
    staleReason: readNullableText(row, 'stale_reason'),
    version: Number(row['version']),
    currentVersion: Number(row['current_version']),
    userId: readNullableText(row, 'user_id'),
    createdAt: readText(row, 'created_at'),
    updatedAt: readText(row, 'updated_at'),
  };
}
