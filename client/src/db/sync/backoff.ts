/**
 * Delay before retry number `failures` (1, 2, ...): exponential with "full jitter" (AWS
 * architecture blog, "Exponential Backoff And Jitter"), so that a thousand phones that lost the
 * same cell tower do not come back in the same second. Never below a quarter of the base.
 */
export function backoffDelay(failures: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.max(baseMs / 4, Math.round(ceiling * random()));
}
