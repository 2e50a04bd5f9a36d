/**
 * Runs `work` over `items` with at most `size` in flight, in item order. Every started item is
 * awaited before the first failure is rethrown, so nothing keeps writing after the caller moved on.
 */
export async function pool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  const results = await Promise.allSettled(Array.from({ length: Math.max(1, Math.min(size, items.length)) }, worker));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
