/**
 * Evicted attempts are reported, never silent (docs/exams.md "Two tabs, storage and eviction"). A browser may delete a site's
 * IndexedDB under storage pressure (always, unless it granted persistence), and with it an
 * attempt the server has not received yet. So a tiny list of the attempts waiting to upload is
 * kept outside IndexedDB, in localStorage (not part of what the quota manager evicts): when a
 * replica opens and one of them is missing from it, and the server does not send it back either
 * (the first full pull of a signed-in person; a guest's attempts are never on the server), it is
 * reported to the learner until they dismiss it.
 */

/** What is remembered of an attempt waiting to upload: enough to name it in the report. */
export type UnsentEntry = { id: string; qsid: string; st: number };

const unsentKey = (dbName: string) => `pm-unsent:${dbName}`;
const lostKey = (dbName: string) => `pm-lost:${dbName}`;

function read(key: string): UnsentEntry[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw.filter(
      (e): e is UnsentEntry => typeof e === 'object' && e !== null && typeof (e as UnsentEntry).id === 'string' && typeof (e as UnsentEntry).qsid === 'string' && typeof (e as UnsentEntry).st === 'number',
    );
  } catch {
    return [];
  }
}

function write(key: string, entries: UnsentEntry[]) {
  try {
    if (entries.length === 0) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(entries));
  } catch {
    // localStorage full or blocked: the report cannot be kept; nothing else depends on it.
  }
}

/** The attempts remembered as waiting to upload from the database `dbName`. */
export function readUnsent(dbName: string): UnsentEntry[] {
  return read(unsentKey(dbName));
}

export function writeUnsent(dbName: string, entries: UnsentEntry[]): void {
  write(unsentKey(dbName), entries);
}

/** Forgets some remembered attempts (they left the database on purpose: moved, erased). */
export function forgetUnsent(dbName: string, ids: Iterable<string>): void {
  const drop = new Set(ids);
  writeUnsent(dbName, readUnsent(dbName).filter((e) => !drop.has(e.id)));
}

/** The remembered entries that the database does not hold. */
export function missingFrom(remembered: readonly UnsentEntry[], present: ReadonlySet<string>): UnsentEntry[] {
  return remembered.filter((e) => !present.has(e.id));
}

/**
 * The list to remember: the attempts waiting now (with what is known of them), and the missing
 * ones whose fate is not settled yet (offline at start: the server has not been asked).
 */
export function unsentList(waiting: Iterable<string>, known: ReadonlyMap<string, UnsentEntry>, unresolved: readonly UnsentEntry[]): UnsentEntry[] {
  const out = new Map<string, UnsentEntry>();
  for (const id of waiting) {
    const e = known.get(id);
    if (e) out.set(id, e);
  }
  for (const e of unresolved) if (!out.has(e.id)) out.set(e.id, e);
  return [...out.values()];
}

const listeners = new Set<() => void>();
let version = 0;

/** Attempts reported lost (until the learner dismisses the report). */
export function readLost(dbName: string): UnsentEntry[] {
  return read(lostKey(dbName));
}

export function recordLost(dbName: string, entries: readonly UnsentEntry[]): void {
  if (entries.length === 0) return;
  const all = new Map(readLost(dbName).map((e) => [e.id, e]));
  for (const e of entries) all.set(e.id, e);
  write(lostKey(dbName), [...all.values()]);
  version++;
  for (const l of listeners) l();
}

export function dismissLost(dbName: string): void {
  write(lostKey(dbName), []);
  version++;
  for (const l of listeners) l();
}

/** Both lists go with an erased database (logout with "erase": nothing was lost by accident). */
export function clearUnsentMarkers(dbName: string): void {
  write(unsentKey(dbName), []);
  dismissLost(dbName);
}

export function subscribeLost(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const lostVersion = (): number => version;
