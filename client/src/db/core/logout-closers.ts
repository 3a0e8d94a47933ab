/**
 * Databases besides the learner replica that close at logout (docs/authoring.md "Offline authoring": an editor's question
 * bank). A tiny registry without RxDB, so the shell's logout reaches them without loading them.
 */
type Closer = (opts: { erase: boolean }) => Promise<void>;
const closers = new Set<Closer>();

/** Registers a database to close (and with `erase`, delete) at logout; returns the unregister. */
export function closeAtLogout(closer: Closer): () => void {
  closers.add(closer);
  return () => closers.delete(closer);
}

/** Closes (or erases) every registered database; one failing does not keep the others open. */
export async function runLogoutClosers(opts: { erase: boolean }): Promise<void> {
  await Promise.all([...closers].map((c) => c(opts).catch((err: unknown) => console.error('closing at logout failed', err))));
}
