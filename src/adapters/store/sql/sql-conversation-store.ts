import { randomUUID } from 'node:crypto';
import {
  type OwnedBy,
  NotFoundError,
  type ConversationRecord,
  type ConversationStore,
  type MessageRecord,
  type MessageRole,
  type NewMessage,
} from '../../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { fromJsonColumn, toJsonColumn } from '../json-column.js';
import { constraintViolation } from './constraint-violation.js';
import { ownedByCondition } from './owned-by.js';
import { sqlLimit } from './sql-limit.js';
import { onlyRow, readNullableNumber, readNullableText, readNumber, readText } from './row-values.js';
import type { SqlAccess, SqlRow } from './sql-access.js';

const conversationColumns = 'id, title, user_id, created_at';
const messageColumns = 'id, conversation_id, run_id, role, content, tool_call_ids, model, input_tokens, output_tokens, created_at';

/**
 * Conversations in `conversations`, newest first, and their messages in `messages`, numbered by a
 * dense `position` per conversation. Appending to an unknown conversation throws `NotFoundError`;
 * listing an unknown conversation's messages returns none.
 */
export class SqlConversationStore implements ConversationStore {
  constructor(private readonly sql: SqlAccess) {}

  async create(options: { id?: string; title?: string | null; userId?: string | null } = {}): Promise<ConversationRecord> {
    const record: ConversationRecord = { id: options.id ?? randomUUID(), title: options.title ?? null, userId: options.userId ?? null, createdAt: new Date().toISOString() };
    await this.sql.writeNow([
      {
        statement: { sql: 'INSERT INTO conversations (id, title, user_id, created_at) VALUES (?, ?, ?, ?)', args: [record.id, record.title, record.userId, record.createdAt] },
        onError: (error) => (constraintViolation(error) === 'unique' ? new DuplicateRecordError('conversation', { id: record.id }) : error),
      },
    ]);
    return record;
  }

  async get(id: string): Promise<ConversationRecord | undefined> {
    const result = await this.sql.read({ sql: `SELECT ${conversationColumns} FROM conversations WHERE id = ?`, args: [id] });
    const row = result.rows[0];
    return row === undefined ? undefined : conversationFromRow(row);
  }

  async list(options: { limit?: number; ownedBy?: OwnedBy } = {}): Promise<ConversationRecord[]> {
    const result = await this.sql.read({
      sql: `SELECT ${conversationColumns} FROM conversations ${options.ownedBy === undefined ? '' : `WHERE ${ownedByCondition(options.ownedBy)}`} ORDER BY ordinal DESC LIMIT ?`,
      args: [...(options.ownedBy === undefined ? [] : [options.ownedBy.userId]), sqlLimit('limit', options.limit)],
    });
    return result.rows.map(conversationFromRow);
  }

  async appendMessages(conversationId: string, messages: readonly NewMessage[]): Promise<MessageRecord[]> {
    if (messages.length === 0) {
      if ((await this.get(conversationId)) === undefined) throw conversationNotFound(conversationId);
      return [];
    }
    const createdAt = new Date().toISOString();
    // One write is one transaction: a message the database refuses (an unknown conversation, a role
    // outside the allowed set) rolls back every message before it. Each position is computed inside the
    // unit, which the engine runs as if alone (SQLite's write lock, PostgreSQL's serializable
    // isolation), so concurrent appends cannot take the same one.
    const contents = messages.map((message) => toJsonColumn(message.content));
    const steps = messages.map((message, index) => ({
      statement: {
        sql: `INSERT INTO messages (conversation_id, position, role, content, tool_call_ids, model, input_tokens, output_tokens, run_id, created_at)
              VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1 FROM messages WHERE conversation_id = ?), ?, ?, ?, ?, ?, ?, ?, ?)
              RETURNING id`,
        args: [
          conversationId,
          conversationId,
          message.role,
          contents[index]!,
          JSON.stringify(message.toolCallIds),
          message.model,
          message.inputTokens,
          message.outputTokens,
          message.runId,
          createdAt,
        ],
      },
      onError: (error: unknown) => (constraintViolation(error) === 'foreign-key' ? conversationNotFound(conversationId) : error),
    }));
    const results = await this.sql.write(steps);
    // The record is what was written; only the id comes from the database.
    return messages.map((message, index) => ({
      id: readNumber(onlyRow(results[index]!.rows), 'id'),
      conversationId,
      runId: message.runId,
      role: message.role,
      content: fromJsonColumn(contents[index]!),
      toolCallIds: [...message.toolCallIds],
      model: message.model,
      inputTokens: message.inputTokens,
      outputTokens: message.outputTokens,
      createdAt,
    }));
  }

  async listMessages(conversationId: string, options: { lastN?: number } = {}): Promise<MessageRecord[]> {
    const result = await this.sql.read({
      sql: `SELECT ${messageColumns} FROM (
              SELECT ${messageColumns}, position FROM messages WHERE conversation_id = ? ORDER BY position DESC LIMIT ?
            ) AS newest ORDER BY position`,
      args: [conversationId, sqlLimit('lastN', options.lastN)],
    });
    return result.rows.map(messageFromRow);
  }
}

function conversationNotFound(conversationId: string): NotFoundError {
  return new NotFoundError('conversation', conversationId, 'Create the conversation with store.conversations.create before appending to it.');
}

function conversationFromRow(row: SqlRow): ConversationRecord {
  return { id: readText(row, 'id'), title: readNullableText(row, 'title'), userId: readNullableText(row, 'user_id'), createdAt: readText(row, 'created_at') };
}

function messageFromRow(row: SqlRow): MessageRecord {
  return {
    id: readNumber(row, 'id'),
    conversationId: readText(row, 'conversation_id'),
    runId: readNullableText(row, 'run_id'),
    role: readText(row, 'role') as MessageRole,
    content: fromJsonColumn(readNullableText(row, 'content')),
    toolCallIds: JSON.parse(readText(row, 'tool_call_ids')) as string[],
    model: readNullableText(row, 'model'),
    inputTokens: readNullableNumber(row, 'input_tokens'),
    outputTokens: readNullableNumber(row, 'output_tokens'),
    createdAt: readText(row, 'created_at'),
  };
}
