import type { RunHandle } from '../../runtime/index.js';
import type { StartedRun } from './api-schemas.js';
import { ApiError, type RouteContext } from './api-route.js';

/** A route that starts work refuses it (503) once the server is shutting down. */
export function refuseWhileShuttingDown(context: RouteContext): void {
  if (context.server.shuttingDown) throw new ApiError(503, 'ServerShuttingDown', 'The server is shutting down and starts no new work.', 'Retry against the server once it is back.');
}

/**
 * The answer to a route that started a run: its id and where its events stream. The run goes on after
 * the response, its outcome in its record and its events: its result is let go of here, never awaited.
 */
export function startedRunAnswer(handle: RunHandle<unknown>): StartedRun {
  handle.result.catch(() => undefined);
  return { run_id: handle.runId, events_url: `/api/v1/runs/${encodeURIComponent(handle.runId)}/events` };
}
