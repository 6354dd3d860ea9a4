import { z } from 'zod';
import { parseCapabilityArguments } from './capability-arguments.js';
import type { CapabilityDefinition } from './capability-definition.js';

export const logCapability: CapabilityDefinition = {
  name: 'log',
  description:
    "Appends one line to the run's logs, which the harness keeps for whoever inspects the run. Values that are not " +
    'strings are written as JSON. Logging never fails and returns nothing; lines past the cap are dropped and counted.',
  signature: 'forge.log(...values: unknown[]): void',
  answersAtOnce: true,
  // Fire and forget: a guest that logs must not have to await, and a refused line must not throw into it.
  guestAdapter: `(call) => function log(...values) {
    const show = (value) => {
      if (typeof value === 'string') return value;
      try { return JSON.stringify(value) ?? String(value); } catch { return String(value); }
    };
    call('log', [values.map(show).join(' ')]).catch(() => undefined);
  }`,
  createHostMethods(_resources, run) {
    return {
      log(callArguments) {
        run.appendLog(parseCapabilityArguments(z.tuple([z.string()]), callArguments, 'forge.log')[0]);
        return null;
      },
    };
  },
};
