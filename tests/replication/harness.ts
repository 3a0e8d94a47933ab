import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { openReplicaDatabase, type ReplicaDatabase } from '../../client/src/db/database';
import { startReplication, type Replication, type ReplicationOptions } from '../../client/src/db/replication';
import type { SyncStatus } from '../../client/src/db/sync-status';
import { type Harness, startHarness } from '../../server/src/test/harness';

/**
 * The real server (Hono app, SQLite file in a temporary directory, seeded from fixtures/)
 * listening on a real port, so that clients talk HTTP to it and it can be stopped and started
 * again on the same data and port mid-replication.
 */
export async function startServer(opts: { dataDir?: string; port?: number } = {}) {
  const harness: Harness = await startHarness({ dataDir: opts.dataDir, seed: opts.dataDir === undefined });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: harness.app.fetch, hostname: '127.0.0.1', port: opts.port ?? 0 }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    harness,
    port,
    url: `http://127.0.0.1:${port}`,
    /** Closes connections (streams included) and the database; the data directory stays. */
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      harness.close();
    },
  };
}
export type TestServer = Awaited<ReturnType<typeof startServer>>;

let seq = 0;

/** One device: its own IndexedDB database (fake-indexeddb), validated against the schemas. */
export async function openDevice(personId: string, server: { url: string }, opts: Partial<ReplicationOptions> & { token: () => string | null }) {
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) });
  const db: ReplicaDatabase = await openReplicaDatabase(personId, { storage, multiInstance: false, name: `device-${++seq}-${Date.now()}` });
  let status: SyncStatus = { phase: 'idle', online: true, pending: 0, lastSync: null };
  const replication: Replication = startReplication(db, {
    baseUrl: server.url,
    getToken: opts.token,
    waitForLeadership: false,
    retryBaseMs: 50,
    retryMaxMs: 400,
    ...opts,
    onStatus: (p) => {
      status = { ...status, ...p };
      opts.onStatus?.(p);
    },
  });
  return {
    db,
    replication,
    status: () => status,
    async close() {
      await replication.stop();
      await db.remove();
    },
  };
}
export type Device = Awaited<ReturnType<typeof openDevice>>;

/** Polls until `check` holds (replication is asynchronous), failing after `ms`. */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 15_000, label = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
