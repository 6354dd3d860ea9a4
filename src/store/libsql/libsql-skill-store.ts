import type { Client, Row } from '@libsql/client';
import { NotFoundError, type NewSkill, type SkillRecord, type SkillStatus, type SkillStore } from '../../core/index.js';
import { fromJsonColumn, toJsonColumn } from '../json-column.js';
import { onlyRow, readNullableText, readText } from './row-values.js';

const skillColumns = 'id, name, description, document, status, stale_reason, created_at, updated_at';

/** Skills in `skills`, addressed by id or by their unique name. */
export class LibsqlSkillStore implements SkillStore {
  constructor(private readonly client: Client) {}

  async save(skill: NewSkill): Promise<SkillRecord> {
    const now = new Date().toISOString();
    // Saving under a taken name replaces that skill's document in place: its id and creation time
    // stay, so anything that points at the id keeps working, and a re-recorded skill is active again.
    const result = await this.client.execute({
      sql: `INSERT INTO skills (id, name, description, document, status, stale_reason, created_at, updated_at)
            VALUES (?, ?, ?, ?, 'active', NULL, ?, ?)
            ON CONFLICT (name) DO UPDATE SET description = excluded.description, document = excluded.document,
              status = 'active', stale_reason = NULL, updated_at = excluded.updated_at
            RETURNING ${skillColumns}`,
      args: [skill.id, skill.name, skill.description, toJsonColumn(skill.document), now, now],
    });
    return skillFromRow(onlyRow(result.rows));
  }

  async get(idOrName: string): Promise<SkillRecord | undefined> {
    const result = await this.client.execute({
      sql: `SELECT ${skillColumns} FROM skills WHERE id = ? OR name = ? ORDER BY id = ? DESC LIMIT 1`,
      args: [idOrName, idOrName, idOrName],
    });
    const row = result.rows[0];
    return row === undefined ? undefined : skillFromRow(row);
  }

  async list(): Promise<SkillRecord[]> {
    const result = await this.client.execute(`SELECT ${skillColumns} FROM skills ORDER BY ordinal`);
    return result.rows.map(skillFromRow);
  }

  async setStatus(idOrName: string, status: SkillStatus, reason: string | null): Promise<SkillRecord> {
    const existing = await this.get(idOrName);
    if (existing === undefined) throw new NotFoundError('skill', idOrName, 'List the stored skills with `forge skill list`.');
    const result = await this.client.execute({
      sql: `UPDATE skills SET status = ?, stale_reason = ?, updated_at = ? WHERE id = ? RETURNING ${skillColumns}`,
      args: [status, status === 'active' ? null : reason, new Date().toISOString(), existing.id],
    });
    return skillFromRow(onlyRow(result.rows));
  }

  async delete(idOrName: string): Promise<boolean> {
    const existing = await this.get(idOrName);
    if (existing === undefined) return false;
    await this.client.execute({ sql: 'DELETE FROM skills WHERE id = ?', args: [existing.id] });
    return true;
  }
}

function skillFromRow(row: Row): SkillRecord {
  return {
    id: readText(row, 'id'),
    name: readText(row, 'name'),
    description: readText(row, 'description'),
    document: fromJsonColumn(readText(row, 'document')),
    status: readText(row, 'status') as SkillStatus,
    staleReason: readNullableText(row, 'stale_reason'),
    createdAt: readText(row, 'created_at'),
    updatedAt: readText(row, 'updated_at'),
  };
}
