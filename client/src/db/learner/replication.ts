import type { RxCollection } from 'rxdb';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { combineLatest, filter, map, Subject, type Subscription } from 'rxjs';
import { COLLECTIONS, type CollectionName, GUEST_COLLECTIONS, PUSHABLE, type StreamEvent } from '@pm/protocol/sync/envelopes';
import { attemptConflictHandler } from '../attempts/attempt-conflicts';
import type { ReplicaDatabase } from '../core/database';
import { backoffDelay } from '../sync/backoff';
import { keepLiveKey } from './live-keys';
import type { ServerClock } from '../sync/server-clock';
import type { SyncStatus } from '../sync/sync-status';
import { createSyncTransport, type PullCheckpoint, type RequestOutcome, SyncPaymentRequiredError, type SyncTransport } from '../sync/transport';

/** The replication's limits: pull pages of 200, pushes of 20 attempts. */
export const PULL_BATCH = 200;
export const PUSH_BATCH = 20;
const ACKS_KEY = 'sync-acks';

export type ReplicationOptions = {
  /** Origin of the server, e.g. window.location.origin. */
  baseUrl: string;
  /** The current bearer token; read on every request so a new login takes effect at once. */
  getToken: () => string | null;
  /**
   * A response renewed the token it was sent with (docs/security.md "Sessions and logout": tokens more than a day old come
   * back renewed, so a device that syncs now and then never reaches its token's expiry).
   */
  onTokenRenewed?: (sent: string, fresh: string) => void;
  /** fetch to use (tests wrap it to inject failures). */
  fetch?: typeof fetch;
  clock?: ServerClock;
  /**
   * Receives status changes (online, phase, pending uploads, last sync); with a pending count
   * also the ids of the attempts it counts.
   */
  onStatus?: (patch: Partial<SyncStatus> & { pendingIds?: string[] }) => void;
  /** Keep replicating and listen to the stream (default true). */
  live?: boolean;
  /** Open GET /api/sync/v1/stream (default true when live). */
  stream?: boolean;
  /** Only the elected leader among this person's tabs replicates (default true). */
  waitForLeadership?: boolean;
  pullBatchSize?: number;
  pushBatchSize?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Give up a request after this long without progress (default REQUEST_STALL_MS). */
  requestStallMs?: number;
  /** Reconnect the stream after this long without a byte (default STREAM_STALL_MS). */
  streamStallMs?: number;
  /**
   * Pushes wait this long after a local write (and then for an idle moment), so that a learner's
   * taps are stored in IndexedDB without a push competing for the CPU and the database each
   * time; the writes are already on the device, so nothing waits in memory. Default 0.
   */
  pushDelayMs?: number;
  /**
   * A guest's device (docs/replication.md "Guests"): pulls GUEST_COLLECTIONS without a login, pushes nothing and
   * opens no stream; its attempts wait on the device for the guest to sign up or log in.
   */
  guest?: boolean;
};

export type Replication = {
  states: Record<CollectionName, RxReplicationState<unknown, PullCheckpoint>>;
  /** Pull everything newer than the checkpoints now (reconnect, page visible again). */
  reSync(): void;
  /** Resolves when every collection has pulled and pushed what it knows of. */
  awaitInSync(): Promise<void>;
  /** Stops replication (the database stays open). */
  stop(): Promise<void>;
};

/** A pause, then the next idle moment of the page (at most 2 s more) where the browser has one. */
function pushPause(ms: number): Promise<void> {
  return new Promise((resolve) =>
    setTimeout(() => {
      if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 2000 });
      else resolve();
    }, ms),
  );
}

type Acks = { acks: Record<string, number> };
type Attempt = { id: string; updatedAt: number };
type StatusPatch = Partial<SyncStatus> & { pendingIds?: string[] };
type States = Replication['states'];

/**
 * What the learner's replication knows of its requests: whether the token was refused (then a
 * retry waits the maximum and the status says "sign in again") and each collection's failures in
 * a row (the backoff's exponent).
 */
type RequestRecord = { authRefused: boolean; failures: Map<CollectionName, number> };

/** The sync status a request's outcome gives, and its effect on the retry times (docs/replication.md "The device side"). */
function noteOutcome(outcome: RequestOutcome, collection: CollectionName, record: RequestRecord, states: States, baseMs: number, status: (patch: StatusPatch) => void): void {
  switch (outcome) {
    case 'unreachable':
      status({ online: false, phase: 'offline' });
      return;
    case 'signed-out':
      record.authRefused = true;
      status({ online: true, phase: 'signed-out' });
      return;
    case 'payment-required':
    case 'failed':
      status({ online: true, phase: 'error' });
      return;
    case 'ok':
      record.authRefused = false;
      record.failures.set(collection, 0);
      states[collection].retryTime = baseMs;
      status({ online: true, lastSync: Date.now() });
  }
}

/**
 * The pull of one collection. RxDB stores no checkpoint from a pull answer without documents (its
 * downstream stops there), yet such an answer can move on: past a page of paid sets' questions
 * held back from this learner, or to a new `g` (docs/payments.md "Without a plan"). Carried here
 * for the next pull; a pull with documents stores its checkpoint as usual.
 */
function pullHandler(transport: SyncTransport, name: CollectionName) {
  let carried: PullCheckpoint | undefined;
  return async (checkpoint: PullCheckpoint | undefined, batchSize: number) => {
    let from = carried && (!checkpoint || carried.rev >= checkpoint.rev) ? carried : checkpoint;
    for (;;) {
      const body = await transport.pull<Record<string, unknown>>(name, from, batchSize);
      if (body.documents.length > 0) {
        carried = undefined;
        return { documents: body.documents as never[], checkpoint: body.checkpoint };
      }
      const before = from?.rev ?? 0;
      // Nothing after it anywhere: the revision reached stays (a pull that started over finds nothing below it).
      carried = { ...body.checkpoint, rev: Math.max(body.checkpoint.rev, before) };
      // A page held back entirely: ask for the next one now rather than at the next change.
      if (body.checkpoint.rev <= before) return { documents: [], checkpoint: carried };
      from = carried;
    }
  };
}

/**
 * Attempts in a push the server refused for want of a plan (402), until a push of them succeeds
 * (docs/payments.md "Without a plan"); the status lists them.
 */
function planRefusals(status: (patch: StatusPatch) => void) {
  const refused = new Set<string>();
  return (ids: readonly string[], isRefused: boolean) => {
    const before = refused.size;
    for (const id of ids) {
      if (isRefused) refused.add(id);
      else refused.delete(id);
    }
    if (refused.size !== before) status({ planRequired: [...refused] });
  };
}

/** The push of one collection: its conflicts come back; a 402 marks its attempts as waiting for a plan. */
function pushHandler(transport: SyncTransport, name: CollectionName, planRefused: ReturnType<typeof planRefusals>) {
  return async (rows: { newDocumentState: unknown }[]) => {
    const ids = rows.map((r) => String((r.newDocumentState as { id?: unknown }).id));
    try {
      const conflicts = await transport.push<never[]>(name, rows);
      planRefused(ids, false);
      return conflicts;
    } catch (err) {
      if (err instanceof SyncPaymentRequiredError) planRefused(ids, true);
      throw err;
    }
  };
}

/**
 * A changed entitlement (a plan bought, ended or refunded) changes which paid sets' questions the
 * learner may download (docs/payments.md "Without a plan"): qs_detail is pulled again, with its
 * checkpoint's `g`, so the questions of a set a new plan opens arrive without a reload. The
 * server's stream announces qs_detail then too; this covers a stream that is down. Not for the
 * entitlement of the first pulls: qs_detail's own first pull already asks with the server's
 * current state.
 */
function pullDetailOnEntitlement(states: States, events: Subject<StreamEvent>): Subscription | null {
  const entitlementState = states.entitlement;
  const detailState = states.qs_detail;
  if (!entitlementState || !detailState) return null;
  let started = false;
  void Promise.all([entitlementState.awaitInitialReplication(), detailState.awaitInitialReplication()])
    .then(() => {
      started = true;
    })
    .catch(() => undefined);
  return entitlementState.received$.subscribe(() => {
    if (started) events.next({ type: 'CHANGE', collections: ['qs_detail'] });
  });
}

/**
 * Pending uploads: attempts whose last change the server has not confirmed. The confirmed version
 * (updatedAt) of each attempt is kept in a local document, so the count survives reloads; a
 * pulled attempt is by definition confirmed.
 */
function pendingUploads(db: ReplicaDatabase, attempts: States['test_summary'] | undefined, subs: Subscription[]) {
  const acksReady = db.getLocal<Acks>(ACKS_KEY).then((d) => d ?? db.insertLocal<Acks>(ACKS_KEY, { acks: {} }).catch(() => db.getLocal<Acks>(ACKS_KEY)));
  let ackChain: Promise<unknown> = acksReady;
  const ack = (docs: { id: string; updatedAt: number }[]) => {
    ackChain = ackChain
      .then(async () => {
        const doc = await db.getLocal<Acks>(ACKS_KEY);
        const acks = { ...(doc?.get('acks') as Acks['acks'] | undefined) };
        for (const d of docs) acks[d.id] = Math.max(acks[d.id] ?? 0, d.updatedAt);
        await db.upsertLocal<Acks>(ACKS_KEY, { acks });
      })
      .catch(() => undefined);
  };
  if (attempts)
    subs.push(
      attempts.sent$.subscribe((d) => ack([d as unknown as Attempt])),
      attempts.received$.subscribe((d) => ack([d as unknown as Attempt])),
      // A conflict the server's state settles (above all: the attempt was submitted on another
      // device, and a submitted attempt is final) is written here without a push or a pull, so
      // neither sent$ nor received$ ever confirms it; without this the attempt stayed "waiting to
      // upload" for good (tests/replication/regressions.test.ts, submitted attempt is immutable).
      attempts.conflict$.subscribe(({ input, output }) => {
        const { _meta, _rev, _attachments, ...resolved } = output as Record<string, unknown>;
        const master = input.realMasterState as Parameters<typeof attemptConflictHandler.isEqual>[1];
        if (attemptConflictHandler.isEqual(resolved as typeof master, master, 'pending-uploads')) ack([master as unknown as Attempt]);
      }),
    );
  return {
    /** Counts the waiting attempts as they change, once the record of acknowledgements is there. */
    count(status: (patch: StatusPatch) => void, isClosed: () => boolean): void {
      void acksReady.then(() => {
        if (isClosed()) return;
        subs.push(
          combineLatest([db.test_summary.find().$, db.getLocal$<Acks>(ACKS_KEY)]).subscribe(([docs, acksDoc]) => {
            const acks = (acksDoc?.get('acks') as Acks['acks'] | undefined) ?? {};
            const waiting = docs.filter((d) => d.updatedAt > (acks[d.id] ?? -1)).map((d) => d.id);
            status({ pending: waiting.length, pendingIds: waiting });
          }),
        );
      });
    },
    /** Resolves when the acknowledgements noted so far are written. */
    flushed: () => ackChain,
  };
}

/**
 * Live replication of the five collections with the server's /api/sync/v1 endpoints, using
 * RxDB's replication protocol (pull by checkpoint, push with assumed master state, a stream that
 * triggers pulls) over the sync transport (db/sync/transport.ts). Failed requests are retried by
 * RxDB after `retryTime`, which is set here before each wait to an exponential backoff with
 * jitter; a success resets it.
 */
export function startReplication(db: ReplicaDatabase, opts: ReplicationOptions): Replication {
  const guest = opts.guest === true;
  // Every collection the device opened (all of them in the app; a test device may open fewer: db/core/database.ts).
  const names: readonly CollectionName[] = (guest ? GUEST_COLLECTIONS : COLLECTIONS).filter((n) => n in db.collections);
  const baseMs = opts.retryBaseMs ?? 1000;
  const maxMs = opts.retryMaxMs ?? 60_000;
  const live = opts.live ?? true;
  const status = (patch: StatusPatch) => opts.onStatus?.(patch);
  const record: RequestRecord = { authRefused: false, failures: new Map() };
  const planRefused = planRefusals(status);
  const states = {} as States;
  const transport = createSyncTransport({
    baseUrl: opts.baseUrl,
    getToken: opts.getToken,
    anonymous: guest,
    onTokenRenewed: opts.onTokenRenewed,
    fetch: opts.fetch,
    clock: opts.clock,
    requestStallMs: opts.requestStallMs,
    onOutcome: (outcome, collection) => noteOutcome(outcome, collection as CollectionName, record, states, baseMs, status),
  });

  // One stream for all collections; each collection's pull stream hears RESYNC when its name
  // changed (the events carry no documents: the pull handler fetches them by checkpoint).
  const events = new Subject<StreamEvent>();
  const subs: Subscription[] = [];
  if (live && (opts.stream ?? true) && !guest) {
    subs.push(transport.stream({ baseDelayMs: baseMs, maxDelayMs: maxMs, stallMs: opts.streamStallMs }).subscribe(events));
    // A live test's key in the stream opens its paper at once; the pull of its document follows.
    subs.push(events.subscribe((e) => e.type === 'KEY' && keepLiveKey(e.qsid, e.key)));
  }

  for (const name of names) {
    const pushable = PUSHABLE.includes(name) && !guest;
    const state = replicateRxCollection<unknown, PullCheckpoint>({
      collection: db[name] as unknown as RxCollection<unknown>,
      replicationIdentifier: transport.replicationIdentifier(name),
      live,
      retryTime: baseMs,
      waitForLeadership: opts.waitForLeadership ?? true,
      autoStart: true,
      pull: {
        batchSize: opts.pullBatchSize ?? PULL_BATCH,
        handler: pullHandler(transport, name),
        stream$: events.pipe(
          filter((e) => e.type === 'RESYNC' || (e.type === 'CHANGE' && e.collections.includes(name))),
          map(() => 'RESYNC' as const),
        ),
      },
      ...(pushable && {
        push: {
          batchSize: opts.pushBatchSize ?? PUSH_BATCH,
          ...(opts.pushDelayMs && { waitBeforePersist: () => pushPause(opts.pushDelayMs!) }),
          handler: pushHandler(transport, name, planRefused),
        },
      }),
    });
    // Exponential backoff with jitter: RxDB reads retryTime right after emitting the error.
    subs.push(
      state.error$.subscribe(() => {
        const n = (record.failures.get(name) ?? 0) + 1;
        record.failures.set(name, n);
        state.retryTime = record.authRefused ? maxMs : backoffDelay(n, baseMs, maxMs);
      }),
    );
    states[name] = state;
  }

  if (live) {
    const detailPulls = pullDetailOnEntitlement(states, events);
    if (detailPulls) subs.push(detailPulls);
  }

  const pending = pendingUploads(db, states.test_summary, subs);
  // A guest's attempts wait for a login: counted by the guest replica itself (db/learner/replica.ts).
  if (!guest) pending.count(status, () => closed);

  // Syncing while any collection is active; synced when all are idle and the last requests
  // succeeded.
  subs.push(
    combineLatest(names.map((n) => states[n].active$)).subscribe((active) => {
      if (active.some(Boolean)) status({ phase: 'syncing' });
      else if ([...record.failures.values()].every((n) => n === 0) && !record.authRefused) status({ phase: 'synced' });
    }),
  );

  let closed = false;
  return {
    states,
    reSync() {
      events.next({ type: 'RESYNC' });
    },
    async awaitInSync() {
      await Promise.all(names.map((n) => states[n].awaitInSync()));
    },
    async stop() {
      closed = true;
      for (const s of subs) s.unsubscribe();
      await Promise.all(names.map((n) => states[n].cancel()));
      await pending.flushed();
    },
  };
}
