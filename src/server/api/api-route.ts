import type { z } from 'zod';
import { ForgeError, type ApiScope, type OwnedBy, type Principal } from '../../core/index.js';
import type { ForgeRuntime } from '../../compose/index.js';
import type { EventStreamSlots } from './event-stream-slots.js';

/** How a server authenticates: nobody (loopback only), one admin password, or people's accounts. */
export type AuthMode = 'none' | 'password' | 'accounts';

/** What a route sees of the server it runs in. */
export interface ApiServerState {
  readonly shuttingDown: boolean;
  readonly shutdownSignal: AbortSignal;
  readonly auth: AuthMode;
  /** Whether anyone may make an account (POST /auth/signup); only with accounts. */
  readonly openSignup: boolean;
  /** The open event streams, counted and capped per account and in all. */
  readonly eventStreams: EventStreamSlots;
}

/**
 * Who may call a route: `public` needs no credentials, `signed-in` any principal, a scope a principal
 * holding it (every route also checks ownership of what it touches).
 */
export type RouteAccess = 'public' | 'signed-in' | ApiScope;

/** What a route's handler is given: the runtime, the validated parts of the request, and the server's state. */
export interface RouteContext {
  readonly runtime: ForgeRuntime;
  readonly params: Readonly<Record<string, string>>;
  readonly query: unknown;
  readonly body: unknown;
  readonly request: Request;
  /** Who the request acts as; the operator on a server without accounts. Undefined only on public routes. */
  readonly principal: Principal | undefined;
  /**
   * Whether the principal owns a record whose owner is `ownerId` (null: stored without an owner, so the
   * installation's first admin's). Routes answer 404 for records of others, as if they did not exist.
   */
  owns(ownerId: string | null): boolean;
  /** The filter that lists only the principal's records; undefined for the operator, who sees all. */
  readonly ownedBy: OwnedBy | undefined;
  /** Headers the answer carries besides its body's (Set-Cookie). */
  readonly responseHeaders: Headers;
  readonly server: ApiServerState;
  /** The connection the answer goes out on, for a stream that must watch its client. */
  readonly connection: ClientConnection;
}

/** What a streaming route may know and do about its client's connection. */
export interface ClientConnection {
  /** Bytes of the answer the server holds that the client has not taken yet (a stream's backlog). */
  unsentBytes(): number;
  /** Ends the connection at once with a reset, dropping whatever waits unsent (for a client that stopped reading). */
  reset(): void;
}

/** One route of the API, as data: the OpenAPI document and the authorization matrix are built from this table. */
export interface ApiRoute {
  readonly method: 'get' | 'post' | 'put' | 'delete';
  /** Under `/api/v1` unless `root`; `:name` marks a path parameter. */
  readonly path: string;
  readonly root?: true;
  readonly summary: string;
  readonly access: RouteAccess;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** The success body's schema; `event-stream` and `ndjson` routes stream instead. */
  readonly response: z.ZodType | 'event-stream' | 'ndjson';
  readonly status?: 200 | 201 | 202;
  handle(context: RouteContext): Promise<unknown>;
}

/** A refusal with an HTTP status, in the error envelope; `retryAfterSeconds` is sent as Retry-After. */
export class ApiError extends ForgeError {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 429 | 503,
    name: string,
    message: string,
    hint: string,
    readonly retryAfterSeconds?: number,
  ) {
    super({ name, message, hint });
  }
}
