/**
 * Applies `work` to every item with at most `limit` calls in flight at once, and returns the results
 * in the items' order. After a call fails no further item is started; once the calls in flight have
 * settled, the first failure is thrown.
 */
export async function mapBounded<Item, Result>(items: readonly Item[], limit: number, work: (item: Item) => Promise<Result>): Promise<Result[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`The concurrency limit must be a positive whole number, got ${limit}.`);
  const results: Result[] = new Array<Result>(items.length);
  let next = 0;
  let failure: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
