/**
 * mulberry32: a small seeded generator of numbers in [0, 1). Tests, benches and fault injection
 * use it where a run must be repeatable (the same learners, faults or questions each time, and a
 * failure that names a seed can be built again). Not for anything secret.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
