// @ts-check
/** @typedef {import('./worker-protocol.js').HostToWorkerMessage} HostToWorkerMessage */
/** @typedef {import('./worker-protocol.js').WorkerToHostMessage} WorkerToHostMessage */

// Call ids are unique across every run of this worker, so a late reply can never be taken for another run's.
let nextId = 1;

/**
 * One run's capability calls, which travel to the host by message. At most `callsInFlight` counted calls
 * are sent at once; the rest wait here, in order, and go out as replies come back, so a guest that
 * starts hundreds of calls together keeps only that many busy on the host. Uncounted calls (a capability
 * the host answers at once) always go straight out. Replies, handed in through `deliver`, are applied
 * as they arrive, between guest slices, and wake whoever waits for activity.
 * @param {import('node:worker_threads').MessagePort} channel @param {number} callsInFlight
 */
export function createHostLink(channel, callsInFlight) {
  /** @type {Map<number, (reply: HostToWorkerMessage) => void>} */
  const waiting = new Map();
  /** Ids of the counted calls sent and not answered yet. */
  const sentCounted = new Set();
  /** @type {Array<WorkerToHostMessage & { type: 'capability-call' }>} */
  const heldBack = [];
  /** @type {(() => void) | undefined} */
  let wake;
  return {
    /** @param {HostToWorkerMessage} reply */
    deliver(reply) {
      const apply = waiting.get(reply.id);
      if (apply === undefined) return;
      waiting.delete(reply.id);
      if (sentCounted.delete(reply.id)) {
        const next = heldBack.shift();
        if (next !== undefined) {
          sentCounted.add(next.id);
          channel.postMessage(next);
        }
      }
      apply(reply);
      wake?.();
      wake = undefined;
    },
    /** Calls not answered yet, sent or held back. */
    get inFlight() {
      return waiting.size;
    },
    /**
     * @param {{ capability: string, method: string, argumentsJson: string, counted: boolean }} call
     * @param {(reply: HostToWorkerMessage) => void} onReply
     */
    request({ capability, method, argumentsJson, counted }, onReply) {
      const id = nextId++;
      const message = /** @type {const} */ ({ type: 'capability-call', id, capability, method, argumentsJson });
      waiting.set(id, onReply);
      if (!counted) {
        channel.postMessage(message);
      } else if (sentCounted.size < callsInFlight) {
        sentCounted.add(id);
        channel.postMessage(message);
      } else {
        heldBack.push(message);
      }
    },
    /** @returns {Promise<void>} */
    nextReply() {
      return new Promise((resolve) => {
        wake = resolve;
      });
    },
  };
}
