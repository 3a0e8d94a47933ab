/** The permission picker's moves (revoke, grant, revoke all, grant all, drag and drop). */

/** Granted names after granting `names` (kept in the order of `all`, so the list does not jump). */
export function grant(all: readonly string[], granted: readonly string[], names: readonly string[]): string[] {
  const next = new Set([...granted, ...names]);
  return all.filter((n) => next.has(n));
}

/** Granted names after revoking `names`. */
export function revoke(all: readonly string[], granted: readonly string[], names: readonly string[]): string[] {
  const gone = new Set(names);
  return all.filter((n) => granted.includes(n) && !gone.has(n));
}

/** Where a dragged permission ends: dropping on the other list moves it, anywhere else changes nothing. */
export function dropMove(
  all: readonly string[],
  granted: readonly string[],
  name: string,
  target: 'granted' | 'restricted' | null,
): string[] {
  if (target === 'granted' && !granted.includes(name)) return grant(all, granted, [name]);
  if (target === 'restricted' && granted.includes(name)) return revoke(all, granted, [name]);
  return [...granted];
}

/** Same permissions, whatever the order. */
export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}
