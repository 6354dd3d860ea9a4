import { randomUUID } from 'node:crypto';
import type { Row } from '@libsql/client';
import {
  NotFoundError,
  type ConversationRecord,
  type ConversationStore,
  type MessageRecord,
  type MessageRole,
  type NewMessage,
} from '../../core/index.js';
import { DuplicateRecordError } from '../duplicate-record-error.js';
import { fromJsonColumn, toJsonColumn } from '../json-column.js';
import { constraintViolation } from './constraint-violation.js';
import { sqliteLimit } from './sqlite-limit.js';
import { onlyRow, readNullableNumber, readNullableText, readNumber, readText } from './row-values.js';
import type { SqlBatchExecutor } from './sql-executor.js';

const conversationColumns = 'id, title, created_at';
const messageColumns = 'id, conversation_id, run_id, role, content, tool_call_ids, model, input_tokens, output_tokens, created_at';

/**
 * Conversations in `conversations`, newest first, and their messages in `messages`, numbered by a
 * dense `position` per conversation. Appending to an unknown conversation throws `NotFoundError`;
 * listing an unknown conversation's messages returns none.
 */
export class LibsqlConversationStore implements ConversationStore {
  constructor(private readonly client: SqlBatchExecutor) {}

  async create(options: { id?: string; title?: string | null } = {}): Promise<ConversationRecord> {
    const id = options.id ?? randomUUID();
    try {
      const result = await this.client.execute({
        sql: `INSERT INTO conversations (id, title, created_at) VALUES (?, ?, ?) RETURNING ${conversationColumns}`,
        args: [id, options.title ?? null, new Date().toISOString()],
      });
      return conversationFromRow(onlyRow(result.rows));
    } catch (error) {
      if (constraintViolation(error) === 'unique') throw new DuplicateRecordError('conversation', { id });
      throw error;
    }
  }

  async get(id: string): Promise<ConversationRecord | undefined> {
    const result = await this.client.execute({ sql: `SELECT ${conversationColumns} FROM conversations WHERE id = ?`, args: [id] });
    const row = result.rows[0];
    return row === undefined ? undefined : conversationFromRow(row);
  }

  async list(options: { limit?: number } = {}): Promise<ConversationRecord[]> {
    const result = await this.client.execute({
      sql: `SELECT ${conversationColumns} FROM conversations ORDER BY ordinal DESC LIMIT ?`,
      args: [sqliteLimit('limit', options.limit)],
    });
    return result.rows.map(conversationFromRow);
  }

  async appendMessages(conversationId: string, messages: readonly NewMessage[]): Promise<MessageRecord[]> {
    if (messages.length === 0) {
      if ((await this.get(conversationId)) === undefined) throw conversationNotFound(conversationId);
      return [];
    }
    const createdAt = new Date().toISOString();
    // One write batch is one transaction: a message the database refuses (an unknown conversation, a
    // role outside the allowed set) rolls back every message before it. Each position is computed
    // under the batch's write lock, so concurrent appends cannot take the same one.
    const statements = messages.map((message) => ({
      sql: `INSERT INTO messages (conversation_id, position, role, content, tool_call_ids, model, input_tokens, output_tokens, run_id, created_at)
            VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1 FROM messages WHERE conversation_id = ?), ?, ?, ?, ?, ?, ?, ?, ?)
            RETURNING ${messageColumns}`,
      args: [
        conversationId,
        conversationId,
        message.role,
        toJsonColumn(message.content),
        JSON.stringify(message.toolCallIds),
        message.model,
        message.inputTokens,
        message.outputTokens,
        message.runId,
        createdAt,
      ],
    }));
    try {
      const results = await this.client.batch(statements, 'write');
      return results.map((result) => messageFromRow(onlyRow(result.rows)));
    } catch (error) {
      if (constraintViolation(error) === 'foreign-key') throw conversationNotFound(conversationId);
      throw error;
    }
  }

  async listMessages(conversationId: string, options: { lastN?: number } = {}): Promise<MessageRecord[]> {
    const result = await this.client.execute({
      sql: `SELECT ${messageColumns} FROM (
              SELECT ${messageColumns}, position FROM messages WHERE conversation_id = ? ORDER BY position DESC LIMIT ?
            ) AS newest ORDER BY position`,
      args: [conversationId, sqliteLimit('lastN', options.lastN)],
    });
    return result.rows.map(messageFromRow);
  }
}

function conversationNotFound(conversationId: string): NotFoundError {
  return new NotFoundError('conversation', conversationId, 'Create the conversation with store.conversations.create before appending to it.');
}

function conversationFromRow(row: Row): ConversationRecord {
  return { id: readText(row, 'id'), title: readNullableText(row, 'title'), createdAt: readText(row, 'created_at') };
}

function messageFromRow(row: Row): MessageRecord {
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
