import { RUN_LOG_FORMAT_VERSION, isLiveEventBus, type AnyEventBody, type EventBus, type ForgeEvent, type LiveEventBody } from '../core/index.js';

/**
 * Emits the events of one run: stamps `ts`, `run_id` and a dense `seq` from 0 (or, for a resumed run,
 * from `firstSeq`), and the run log format this build writes on `run-start` (whatever the producer passed).
 */
export interface RunEmitter {
  readonly runId: string;
  emit(body: AnyEventBody): ForgeEvent;
  /** Publishes a live event (no `seq`, never recorded) when the bus carries them; otherwise does nothing. */
  emitLive(body: LiveEventBody): void;
}

export function createRunEmitter(bus: EventBus, runId: string, firstSeq = 0): RunEmitter {
  let seq = firstSeq;
  return {
    runId,
    emit(body) {
      const stamped = body.type === 'run-start' ? { ...body, log_format: RUN_LOG_FORMAT_VERSION } : body;
      const event = { ...stamped, ts: new Date().toISOString(), run_id: runId, seq: seq++ } as ForgeEvent;
      bus.publish(event);
      return event;
    },
    emitLive(body) {
      if (isLiveEventBus(bus)) bus.publishLive({ ...body, ts: new Date().toISOString(), run_id: runId });
    },
  };
}
