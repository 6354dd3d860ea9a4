import type { AnyEventBody, EventBus, ForgeEvent } from '../core/index.js';

/** Emits the events of one run: stamps `ts`, `run_id` and a dense `seq` from 0 (or, for a resumed run, from `firstSeq`). */
export interface RunEmitter {
  readonly runId: string;
  emit(body: AnyEventBody): ForgeEvent;
}

export function createRunEmitter(bus: EventBus, runId: string, firstSeq = 0): RunEmitter {
  let seq = firstSeq;
  return {
    runId,
    emit(body) {
      const event = { ...body, ts: new Date().toISOString(), run_id: runId, seq: seq++ } as ForgeEvent;
      bus.publish(event);
      return event;
    },
  };
}
