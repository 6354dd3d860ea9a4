import { randomBytes } from 'node:crypto';
import { describeError, type RunRequestInput, type RunSubmission, type ScheduleRecord } from '../core/index.js';
import type { ForgeRuntime } from '../compose/create-runtime.js';
import { readRunSubmission } from '../runs/legacy-run-requests.js';

/** How many due schedules one tick claims at most; the rest wait for the next tick. */
const CLAIM_LIMIT = 50;

/** One firing: the schedule, the slot it fired for, and the run it started (or why none started). */
export type ScheduleFiring = { readonly scheduleId: string; readonly slotMs: number } & ({ readonly runId: string } | { readonly error: string });

/**
 * Records a schedule that submits `request` every `everyMs` (at least a second), first at `firstDueMs`
 * (default now), as a run of `userId` (default none: the operator). The request is checked with the
 * schema a worker parses it with, so a schedule that could never fire is refused now; it is stored as
 * the submission a worker's job carries (`{ request, user_id }`).
 */
export async function createSchedule(runtime: ForgeRuntime, options: { readonly name: string; readonly everyMs: number; readonly request: RunRequestInput; readonly userId?: string | null; readonly firstDueMs?: number }): Promise<ScheduleRecord> {
  const submission: RunSubmission = readRunSubmission({ request: options.request, user_id: options.userId ?? null });
  return runtime.store.schedules.create({ id: randomBytes(6).toString('hex'), name: options.name, everyMs: options.everyMs, request: submission, firstDueMs: options.firstDueMs ?? Date.now() });
}

/**
 * Fires every schedule due at `nowMs`: claims them (once per slot, whichever process claims first: see
 * `ScheduleStore.claimDue`) and submits each one's request through the front door like the API does
 * (`runs.submit`: here when embedded, on a worker when scaled); one stored by an older Forge is read too. A schedule whose request no longer validates, or whose run is
 * refused, is reported with its error and fires again at its next slot.
 */
export async function fireDueSchedules(runtime: ForgeRuntime, nowMs: number = Date.now()): Promise<ScheduleFiring[]> {
  const firings: ScheduleFiring[] = [];
  for (const { schedule, slotMs } of await runtime.store.schedules.claimDue(nowMs, CLAIM_LIMIT)) {
    try {
      const { request, user_id: userId } = readRunSubmission(schedule.request);
      const { runId } = await runtime.runs.submit(request, { userId });
      firings.push({ scheduleId: schedule.id, slotMs, runId });
    } catch (error) {
      firings.push({ scheduleId: schedule.id, slotMs, error: describeError(error).message });
    }
  }
  return firings;
}

/**
 * Fires due schedules every `intervalMs` (default 1 s) until stopped: `forge serve` and `forge worker`
 * run one each; however many processes do, a slot fires once. A tick that fails (the store away) is
 * reported and the next one tries again.
 */
export function startScheduler(runtime: ForgeRuntime, options: { readonly intervalMs?: number; readonly report?: (firing: ScheduleFiring) => void; readonly onError?: (error: unknown) => void } = {}): { stop(): Promise<void> } {
  let ticking: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    ticking = ticking.then(async () => {
      try {
        for (const firing of await fireDueSchedules(runtime)) options.report?.(firing);
      } catch (error) {
        options.onError?.(error);
      }
    });
  }, options.intervalMs ?? 1_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await ticking;
    },
  };
}
