// @ts-check
/** @typedef {import('./worker-protocol.js').HostToWorkerMessage} HostToWorkerMessage */
/** @typedef {import('./worker-protocol.js').WorkerToHostMessage} WorkerToHostMessage */

// Call ids are unique across every run of this worker, so a late reply can never be taken for another run's.
let nextId = 1;

/**
 * One run's capability calls, which travel to the host by message. Replies, handed in through `deliver`,
 * are applied as they arrive, between guest slices, and wake whoever waits for activity.
 * @param {import('node:worker_threads').MessagePort} channel
 */
export function createHostLink(channel) {
  /** @type {Map<number, (reply: HostToWorkerMessage) => void>} */
  const waiting = new Map();
  /** @type {(() => void) | undefined} */
  let wake;
  return {
    /** @param {HostToWorkerMessage} reply */
    deliver(reply) {
      const apply = waiting.get(reply.id);
      if (apply === undefined) return;
      waiting.delete(reply.id);
      apply(reply);
      wake?.();
      wake = undefined;
    },
    get inFlight() {
      return waiting.size;
    },
    /**
     * @param {string} capability @param {string} method @param {string} argumentsJson
     * @param {(reply: HostToWorkerMessage) => void} onReply
     */
    request(capability, method, argumentsJson, onReply) {
      const id = nextId++;
      waiting.set(id, onReply);
      channel.postMessage(/** @type {WorkerToHostMessage} */ ({ type: 'capability-call', id, capability, method, argumentsJson }));
    },
    /** @returns {Promise<void>} */
    nextReply() {
      return new Promise((resolve) => {
        wake = resolve;
      });
    },
  };
}
