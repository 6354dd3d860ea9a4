// @ts-check
/** @typedef {import('./worker-protocol.js').HostToWorkerMessage} HostToWorkerMessage */
/** @typedef {import('./worker-protocol.js').WorkerToHostMessage} WorkerToHostMessage */

/**
 * Capability calls travel to the host by message. Replies are applied as they arrive, between guest
 * slices, and wake whoever waits for activity.
 * @param {import('node:worker_threads').MessagePort} channel
 */
export function createHostLink(channel) {
  let nextId = 1;
  /** @type {Map<number, (reply: HostToWorkerMessage) => void>} */
  const waiting = new Map();
  /** @type {(() => void) | undefined} */
  let wake;
  channel.on('message', (/** @type {HostToWorkerMessage} */ reply) => {
    const apply = waiting.get(reply.id);
    waiting.delete(reply.id);
    apply?.(reply);
    wake?.();
    wake = undefined;
  });
  return {
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
