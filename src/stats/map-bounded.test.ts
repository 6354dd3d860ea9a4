import { describe, expect, it } from 'vitest';
import { mapBounded } from './map-bounded.js';

/** Work whose calls the test settles by hand, counting how many are in flight. */
function heldWork() {
  const held: { item: number; settle: (ok: boolean) => void }[] = [];
  const counts = { started: 0, inFlight: 0, maxInFlight: 0 };
  const work = (item: number) =>
    new Promise<string>((resolve, reject) => {
      counts.started += 1;
      counts.inFlight += 1;
      counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
      held.push({
        item,
        settle: (ok) => {
          counts.inFlight -= 1;
          if (ok) resolve(`done ${item}`);
          else reject(new Error(`failed ${item}`));
        },
      });
    });
  return { held, counts, work };
}

/** Lets every promise callback that is ready run. */
async function drain(): Promise<void> {
  for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
}

describe('mapBounded', () => {
  it('never has more than the limit in flight, starts the next as one settles, and keeps the items\' order', async () => {
    const { held, counts, work } = heldWork();
    const items = Array.from({ length: 20 }, (_, index) => index);

    const mapped = mapBounded(items, 3, work);
    await drain();
    expect(counts).toEqual({ started: 3, inFlight: 3, maxInFlight: 3 });
    // Settle out of order: the last started first.
    while (held.length > 0) {
      held.splice(held.length - 1, 1)[0]!.settle(true);
      await drain();
      expect(counts.inFlight).toBeLessThanOrEqual(3);
    }

    expect(await mapped).toEqual(items.map((item) => `done ${item}`));
    expect(counts).toEqual({ started: 20, inFlight: 0, maxInFlight: 3 });
  });

  it('starts nothing more after a failure, waits for the calls in flight, then throws the first failure', async () => {
    const { held, counts, work } = heldWork();
    const mapped = mapBounded(Array.from({ length: 10 }, (_, index) => index), 2, work);
    const outcome = mapped.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await drain();

    held[1]!.settle(false);
    await drain();
    expect(counts.started).toBe(2);
    let settled = false;
    void outcome.then(() => (settled = true));
    await drain();
    expect(settled).toBe(false);

    held[0]!.settle(true);
    expect(await outcome).toBe('failed 1');
    expect(counts.started).toBe(2);
  });

  it('maps an empty list to an empty list and refuses a limit that is not a positive whole number', async () => {
    expect(await mapBounded([], 4, async () => 1)).toEqual([]);
    await expect(mapBounded([1], 0, async () => 1)).rejects.toThrow(RangeError);
    await expect(mapBounded([1], 1.5, async () => 1)).rejects.toThrow(RangeError);
  });
});
