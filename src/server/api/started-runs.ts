import type { StartedRun } from '../../contract/index.js';
import { ApiError, type RouteContext } from './api-route.js';

/** A route that starts work refuses it (503) once the server is shutting down. */
export function refuseWhileShuttingDown(context: RouteContext): void {
  if (context.server.shuttingDown) throw new ApiError(503, 'ServerShuttingDown', 'The server is shutting down and starts no new work.', 'Retry against the server once it is back.');
}

/**
 * The answer to a route that started (or queued) a run: its id and where its events stream. The run
 * goes on after the response, in this process or on a worker; its outcome is in its record and events.
 */
export function startedRunAnswer(started: { readonly runId: string }): StartedRun {
  return { run_id: started.runId, events_url: `/api/v1/runs/${encodeURIComponent(started.runId)}/events` };
}
