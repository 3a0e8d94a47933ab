import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the background connection copies the WAL back into the database file. */
export const CHECKPOINT_INTERVAL_MS = 250;
/**
 * The request thread's own automatic checkpoint stays on as a safety net, at a size the
 * background checkpoints keep the WAL well under (it takes over if the worker is gone).
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

/*
 * The worker's code, evaluated as CommonJS in its own thread (a worker file in TypeScript would
 * need a loader in every way the server runs: tsx, Vitest, the benches).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    const r = checkpoint.get();
    if (r.checkpointed > 0) parentPort.postMessage({ checkpointed: r.checkpointed, log: r.log });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

export type Checkpointer = {
  /** Stops the worker (its connection closes in its own thread). */
  stop: () => void;
  /** Called after each background checkpoint that copied pages back (for tests and logs). */
  onCheckpoint: (listener: (pages: number) => void) => () => void;
};

/**
 * Runs SQLite's WAL checkpoints on a worker thread with its own connection, so the thread that
 * answers requests never pays for them. A checkpoint copies committed pages from the WAL into the
 * database file and syncs it: on the request thread (SQLite's automatic checkpoint, every 1,000
 * pages) it took about a tenth of the time of a submission storm. PASSIVE checkpoints never
 * block writers; the WAL restarts from its beginning once a checkpoint has caught up.
 */
export function startCheckpointer(file: string, onError: (message: string) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  // The server's lifetime is decided elsewhere: this thread never keeps the process alive.
  worker.unref();
  const listeners = new Set<(pages: number) => void>();
  worker.on('message', (m: { checkpointed?: number; error?: string }) => {
    if (m.error) onError(m.error);
    else if (m.checkpointed) for (const l of listeners) l(m.checkpointed);
  });
  worker.on('error', (err) => onError(err.message));
  return {
    stop: () => worker.postMessage('stop'),
    onCheckpoint: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
