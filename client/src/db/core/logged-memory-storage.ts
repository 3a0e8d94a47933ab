import type {
  BulkWriteRow,
  EventBulk,
  PreparedQuery,
  RxDocumentData,
  RxStorage,
  RxStorageBulkWriteResponse,
  RxStorageChangeEvent,
  RxStorageCountResult,
  RxStorageDefaultCheckpoint,
  RxStorageInstance,
  RxStorageInstanceCreationParams,
  RxStorageQueryResult,
} from 'rxdb';
import { getRxStorageMemory, type RxStorageInstanceMemory } from 'rxdb/plugins/storage-memory';
import { RXDB_VERSION } from 'rxdb/plugins/utils';
import { Subject } from 'rxjs';

/*
 * An RxDB storage that holds its documents in memory (RxDB's own memory storage answers every
 * read and query) and makes every write durable in IndexedDB as ONE record per bulk write, not
 * one record per document. Used for the editor's replica of the question bank (docs/authoring.md "Offline authoring"):
 * Chromium's IndexedDB costs about 0.1 ms per record whatever its size, and RxDB's Dexie storage
 * reads and writes each pulled question and its replication meta (about six requests a
 * question) — 50,000 questions took 28 s. Here a pull batch of 1,000 questions is one record.
 *
 * The log (an IndexedDB database `<database>.rxlog`, store `log`, key [instance, n]):
 *   - a bulk write appends the documents it wrote, in the order the memory storage applied them
 *     (the record is put in the same task as the memory write; IndexedDB runs read-write
 *     transactions on one store in the order they were made);
 *   - the write's promise resolves, and its change event is emitted, only once that record is
 *     committed: what RxDB or the app was told is written is on disk;
 *   - opening reads the instance's records in order (a later state of a document replaces an
 *     earlier one) into a fresh memory instance;
 *   - after COMPACT_AFTER records (and after a cleanup, which purges deleted documents) the
 *     whole state is rewritten as chunks of CHUNK documents in one transaction, replacing the
 *     records it covers.
 *
 * One tab at a time: the memory is this tab's own, so two tabs writing one log would each miss
 * the other's writes. The caller holds a Web Lock on the database for as long as it is open
 * (editor-replica-store.ts); RxDB's database is opened with multiInstance false.
 */

/** Records after which the state is rewritten as chunks. */
const COMPACT_AFTER = 200;
/** Documents per record of a compacted state. */
const CHUNK = 1000;

type LogRecord<T = unknown> = { c: string; n: number; docs: RxDocumentData<T>[] };
type LogDb = { db: IDBDatabase; refs: number };

// Not `idb`'s wrap, as elsewhere (attempt-journal.ts): it recognises requests and transactions by
// the global IndexedDB's classes, and this storage runs on the factory it is given (the tests give
// it fake-indexeddb's, whose objects are not those classes).
const request = <T>(r: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });

export type LoggedMemoryStorageOptions = { indexedDB?: IDBFactory; IDBKeyRange?: typeof IDBKeyRange; compactAfter?: number; chunk?: number };

/** The IndexedDB database that holds the log of an RxDB database of this storage. */
export const logDatabaseNameOf = (databaseName: string) => `${databaseName}.rxlog`;

export function getRxStorageLoggedMemory(opts: LoggedMemoryStorageOptions = {}): RxStorage<unknown, unknown> {
  const memory = getRxStorageMemory();
  const open = new Map<string, Promise<LogDb>>();
  const factory = () => opts.indexedDB ?? indexedDB;
  const keyRange = () => opts.IDBKeyRange ?? IDBKeyRange;

  async function acquire(databaseName: string): Promise<LogDb> {
    let p = open.get(databaseName);
    if (!p) {
      p = (async () => {
        const req = factory().open(logDatabaseNameOf(databaseName), 1);
        req.onupgradeneeded = () => req.result.createObjectStore('log', { keyPath: ['c', 'n'] });
        const db = await request(req);
        // Another page deleting the database (a logout in another tab) must not wait on us.
        db.onversionchange = () => db.close();
        return { db, refs: 0 };
      })();
      open.set(databaseName, p);
      p.catch(() => open.delete(databaseName));
    }
    const l = await p;
    l.refs += 1;
    return l;
  }
  function release(databaseName: string, l: LogDb) {
    l.refs -= 1;
    if (l.refs > 0) return;
    open.delete(databaseName);
    l.db.close();
  }

  return {
    name: 'logged-memory',
    rxdbVersion: RXDB_VERSION,
    async createStorageInstance<RxDocType>(params: RxStorageInstanceCreationParams<RxDocType, unknown>) {
      if (params.schema.attachments) throw new Error(`logged-memory storage: ${params.collectionName} has attachments, which it does not keep`);
      const key = `${params.collectionName}--${params.schema.version}`;
      const log = await acquire(params.databaseName);
      try {
        const range = keyRange().bound([key, 0], [key, Number.MAX_SAFE_INTEGER]);
        const records = (await request(log.db.transaction('log', 'readonly').objectStore('log').getAll(range))) as LogRecord[];
        // A private memory state (a reopened instance must not see an earlier one's).
        const inner = (await memory.createStorageInstance<RxDocType>({
          ...params,
          databaseName: `${params.databaseName}#${Math.random().toString(36).slice(2)}`,
          multiInstance: false,
          options: {},
        })) as unknown as RxStorageInstanceMemory<RxDocType>;
        const primary = inner.primaryPath as string;
        const state = new Map<string, RxDocumentData<RxDocType>>();
        for (const r of records) for (const d of r.docs as RxDocumentData<RxDocType>[]) state.set((d as Record<string, unknown>)[primary] as string, d);
        if (state.size > 0) {
          const res = await inner.bulkWrite(
            [...state.values()].map((document) => ({ document })),
            'logged-memory-load',
          );
          if (res.error.length > 0) throw new Error(`logged-memory storage: ${res.error.length} documents of ${key} could not be loaded`);
        }
        const next = records.length > 0 ? records[records.length - 1]!.n + 1 : 0;
        return new LoggedMemoryInstance<RxDocType>(params, inner, log.db, key, next, records.length, opts, () => release(params.databaseName, log));
      } catch (err) {
        release(params.databaseName, log);
        throw err;
      }
    },
  } as RxStorage<unknown, unknown>;
}

export class LoggedMemoryInstance<RxDocType> implements RxStorageInstance<RxDocType, unknown, Readonly<Record<string, never>>, RxStorageDefaultCheckpoint> {
  readonly databaseName: string;
  readonly collectionName: string;
  readonly schema: RxStorageInstanceCreationParams<RxDocType, unknown>['schema'];
  readonly options: Readonly<Record<string, never>>;
  readonly internals = {};
  private readonly changes$ = new Subject<EventBulk<RxStorageChangeEvent<RxDocumentData<RxDocType>>, RxStorageDefaultCheckpoint>>();
  /** The last write's commit (close waits for it). */
  private last: Promise<unknown> = Promise.resolve();
  private closed = false;
  private compacting = false;
  private failed: unknown = null;

  constructor(
    params: RxStorageInstanceCreationParams<RxDocType, unknown>,
    private readonly inner: RxStorageInstanceMemory<RxDocType>,
    private readonly db: IDBDatabase,
    private readonly key: string,
    private n: number,
    private records: number,
    private readonly opts: LoggedMemoryStorageOptions,
    private readonly onClosed: () => void,
  ) {
    this.databaseName = params.databaseName;
    this.collectionName = params.collectionName;
    this.schema = params.schema;
    this.options = params.options as Readonly<Record<string, never>>;
  }

  /** Every record of this instance. */
  private all() {
    return (this.opts.IDBKeyRange ?? IDBKeyRange).bound([this.key, 0], [this.key, Number.MAX_SAFE_INTEGER]);
  }

  private ensureOpen() {
    if (this.closed) throw new Error(`logged-memory storage: ${this.collectionName} is closed`);
    // A write that did not reach the disk is in the memory: nothing more is read or written, so
    // that nothing is shown or uploaded that a reload would not find (a reload opens the log again).
    if (this.failed) throw new Error(`logged-memory storage: ${this.collectionName} could not be written`, { cause: this.failed });
  }

  bulkWrite(rows: BulkWriteRow<RxDocType>[], context: string): Promise<RxStorageBulkWriteResponse<RxDocType>> {
    return this.guarded(() => this.write(rows, context));
  }

  private write(rows: BulkWriteRow<RxDocType>[], context: string): Promise<RxStorageBulkWriteResponse<RxDocType>> {
    // The memory write is synchronous; the record is made in the same task, so the log keeps the
    // memory's order.
    const answer = this.inner.bulkWrite(rows, context);
    const categorized = this.inner.categorizedByWriteInput.get(rows);
    if (!categorized) throw new Error('logged-memory storage: the memory storage did not say what it wrote');
    const written = [...categorized.bulkInsertDocs, ...categorized.bulkUpdateDocs].map((r) => r.document);
    let committed: Promise<void> = Promise.resolve();
    if (written.length > 0) {
      let tx: IDBTransaction;
      try {
        tx = this.db.transaction('log', 'readwrite');
        tx.objectStore('log').put({ c: this.key, n: this.n++, docs: written } satisfies LogRecord<RxDocType>);
      } catch (err) {
        // The log is gone (its database closed or deleted): the memory has a write the disk has not.
        this.failed = err;
        throw err;
      }
      this.records += 1;
      committed = done(tx).catch((err: unknown) => {
        this.failed = err;
        throw err;
      });
    }
    const result = committed.then(async () => {
      const events = categorized.eventBulk;
      if (events.events.length > 0) this.changes$.next(events as never);
      if (this.records > (this.opts.compactAfter ?? COMPACT_AFTER)) this.scheduleCompaction();
      return answer;
    });
    this.last = result.catch(() => undefined);
    return result;
  }

  /** Runs a read or a write, or answers its refusal as a rejected promise (as RxDB expects of a storage). */
  private guarded<T>(f: () => Promise<T>): Promise<T> {
    try {
      this.ensureOpen();
      return f();
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
  findDocumentsById(ids: string[], withDeleted: boolean): Promise<RxDocumentData<RxDocType>[]> {
    return this.guarded(() => this.inner.findDocumentsById(ids, withDeleted));
  }
  query(q: PreparedQuery<RxDocType>): Promise<RxStorageQueryResult<RxDocType>> {
    return this.guarded(() => this.inner.query(q));
  }
  count(q: PreparedQuery<RxDocType>): Promise<RxStorageCountResult> {
    return this.guarded(() => this.inner.count(q));
  }
  getAttachmentData(): Promise<Blob> {
    return Promise.reject(new Error('logged-memory storage keeps no attachments'));
  }
  changeStream() {
    return this.changes$.asObservable();
  }

  async cleanup(minimumDeletedTime: number): Promise<boolean> {
    this.ensureOpen();
    this.inner.ensurePersistence();
    const before = this.inner.internals.documents.size;
    const finished = await this.inner.cleanup(minimumDeletedTime);
    // Purged documents leave the log with a rewrite of the whole state.
    if (this.inner.internals.documents.size !== before) await this.compact();
    return finished;
  }

  private scheduleCompaction() {
    if (this.compacting) return;
    this.compacting = true;
    const run = () => {
      this.compacting = false;
      if (!this.closed) void this.compact().catch(() => undefined);
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 5000 });
    else setTimeout(run, 0);
  }

  /** Rewrites the whole state as chunks, in one transaction that also deletes the records it covers. */
  compact(): Promise<void> {
    this.ensureOpen();
    // The memory storage applies its last write to its maps lazily: apply it now.
    this.inner.ensurePersistence();
    const docs = [...this.inner.internals.documents.values()];
    const chunk = this.opts.chunk ?? CHUNK;
    const tx = this.db.transaction('log', 'readwrite');
    const store = tx.objectStore('log');
    store.delete(this.all());
    let n = 0;
    for (let i = 0; i < docs.length; i += chunk) store.put({ c: this.key, n: n++, docs: docs.slice(i, i + chunk) } satisfies LogRecord<RxDocType>);
    this.n = n;
    this.records = n;
    const committed = done(tx);
    this.last = Promise.all([this.last, committed]).catch(() => undefined);
    return committed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.last;
    this.changes$.complete();
    // Frees the memory (a private state: nobody else opened it).
    await this.inner.remove();
    this.onClosed();
  }

  async remove(): Promise<void> {
    if (this.closed) throw new Error(`logged-memory storage: ${this.collectionName} is closed`);
    await this.last;
    const tx = this.db.transaction('log', 'readwrite');
    tx.objectStore('log').delete(this.all());
    await done(tx);
    await this.close();
  }
}
