/** Builds the client under `root` when stale (scripts/build-client.mjs). */
export function buildClientIfStale(root: string): void;
