import type { AnyEventBody, EventBus, ForgeEvent } from '../core/index.js';

/** Emits the events of one run: stamps `ts`, `run_id` and a dense `seq` from 0. */
export interface RunEmitter {
  readonly runId: string;
  emit(body: AnyEventBody): ForgeEvent;
}

export function createRunEmitter(bus: EventBus, runId: string): RunEmitter {
  let seq = 0;
  return {
    runId,
    emit(body) {
      const event = { ...body, ts: new Date().toISOString(), run_id: runId, seq: seq++ } as ForgeEvent;
      bus.publish(event);
      return event;
    },
  };
}
