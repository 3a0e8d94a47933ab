import type { RxCollection } from 'rxdb';
import type { RxReplicationState } from 'rxdb/plugins/replication';
import { replicateRxCollection } from 'rxdb/plugins/replication';
import { combineLatest, filter, map, Subject, type Subscription } from 'rxjs';
import { COLLECTIONS, type CollectionName, GUEST_COLLECTIONS, type PullResponse, PUSHABLE, type StreamEvent } from '../../../../sync-protocol/src/sync/envelopes';
import { SESSION_TOKEN_HEADER } from '../../../../sync-protocol/src/session';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, SERVER_TIME_HEADER } from '../../../../sync-protocol/src/version';
import { attemptConflictHandler } from '../attempts/attempt-conflicts';
import { backoffDelay } from '../sync/backoff';
import type { ReplicaDatabase } from '../core/database';
import type { ServerClock } from '../sync/server-clock';
import { readText, REQUEST_STALL_MS, stallGuard, STREAM_STALL_MS } from '../sync/stall-guard';
import { syncStream } from '../sync/sync-stream';
import type { SyncStatus } from '../sync/sync-status';

/** §9-style limits of the replication: pull pages of 200, pushes of 20 attempts. */
export const PULL_BATCH = 200;
export const PUSH_BATCH = 20;
const ACKS_KEY = 'sync-acks';

export type ReplicationOptions = {
  /** Origin of the server, e.g. window.location.origin. */
  baseUrl: string;
  /** The current bearer token; read on every request so a new login takes effect at once. */
  getToken: () => string | null;
  /**
   * A response renewed the token it was sent with (issue 16 §4: tokens more than a day old come
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
   * A guest's device (issue 20 §3): pulls GUEST_COLLECTIONS without a login, pushes nothing and
   * opens no stream; its attempts wait on the device for the guest to sign up or log in.
   */
  guest?: boolean;
};

/**
 * A pull checkpoint as the server returns it: its revision, and for `qs_detail` `g`, the server's
 * fingerprint of which paid sets the learner may download (docs/payments.md "Without a plan"). It
 * is kept as the server sent it and sent back with the next pull, so that the server sends the
 * questions a new plan opens (they are older than `rev`) and nothing else.
 */
export type PullCheckpoint = { rev: number; g?: string };

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

/** The server refused the token: retrying cannot help until the person signs in again. */
export class SyncAuthError extends Error {}

/**
 * 402: the server refused an attempt at a paid set the learner's plan does not cover, taken
 * online (docs/payments.md "Without a plan"). Nothing was stored there; the attempt stays on the
 * device and is pushed again with the usual backoff, and goes up once a plan covers it.
 */
export class SyncPaymentRequiredError extends Error {}

/** The pull's query: revision and batch size, and the checkpoint's `g` when it has one. */
export function pullPath(checkpoint: PullCheckpoint | undefined, batchSize: number): string {
  const g = checkpoint?.g;
  return `pull?rev=${checkpoint?.rev ?? 0}&limit=${batchSize}${typeof g === 'string' ? `&g=${encodeURIComponent(g)}` : ''}`;
}

type Acks = { acks: Record<string, number> };
type Attempt = { id: string; updatedAt: number };

/**
 * Live replication of the five collections with the server's /api/sync/v1 endpoints, using
 * RxDB's replication protocol (pull by checkpoint, push with assumed master state, a stream that
 * triggers pulls). Failed requests are retried by RxDB after `retryTime`, which is set here
 * before each wait to an exponential backoff with jitter; a success resets it.
 */
export function startReplication(db: ReplicaDatabase, opts: ReplicationOptions): Replication {
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const guest = opts.guest === true;
  const names: readonly CollectionName[] = guest ? GUEST_COLLECTIONS : COLLECTIONS;
  const baseMs = opts.retryBaseMs ?? 1000;
  const maxMs = opts.retryMaxMs ?? 60_000;
  const live = opts.live ?? true;
  const status = (patch: Partial<SyncStatus> & { pendingIds?: string[] }) => opts.onStatus?.(patch);
  let authRefused = false;
  const failures = new Map<CollectionName, number>();
  // Attempts in a push the server refused for want of a plan (402), until a push of them succeeds.
  const refused = new Set<string>();
  const planRefused = (ids: readonly string[], isRefused: boolean) => {
    const before = refused.size;
    for (const id of ids) {
      if (isRefused) refused.add(id);
      else refused.delete(id);
    }
    if (refused.size !== before) status({ planRequired: [...refused] });
  };

  async function request<T>(collection: CollectionName, path: string, init: RequestInit = {}): Promise<T> {
    const token = guest ? null : opts.getToken();
    if (!token && !guest) throw new SyncAuthError('not signed in');
    const sentAt = Date.now();
    const guard = stallGuard(opts.requestStallMs ?? REQUEST_STALL_MS);
    let res: Response;
    let text: string;
    try {
      res = await doFetch(`${opts.baseUrl}/api/sync/v1/${collection}/${path}`, {
        ...init,
        cache: 'no-store',
        signal: guard.signal,
        headers: { accept: 'application/json', ...(token && { authorization: `Bearer ${token}` }), [PROTOCOL_HEADER]: PROTOCOL_VERSION, ...(init.headers as Record<string, string>) },
      });
      guard.touch();
      text = await readText(res, guard);
    } catch (err) {
      status({ online: false, phase: 'offline' });
      throw err;
    } finally {
      guard.done();
    }
    const serverTime = Number(res.headers.get(SERVER_TIME_HEADER));
    opts.clock?.observe(serverTime, sentAt, Date.now());
    if (token) renewed(res, token);
    if (res.status === 401) {
      authRefused = true;
      status({ online: true, phase: 'signed-out' });
      throw new SyncAuthError(`sync refused the token (${res.status})`);
    }
    if (res.status === 402) {
      status({ online: true, phase: 'error' });
      throw new SyncPaymentRequiredError(`sync ${collection}/${path} answered 402`);
    }
    if (!res.ok) {
      status({ online: true, phase: 'error' });
      throw new Error(`sync ${collection}/${path} answered ${res.status}`);
    }
    const body = JSON.parse(text) as T;
    authRefused = false;
    failures.set(collection, 0);
    states[collection].retryTime = baseMs;
    status({ online: true, lastSync: Date.now() });
    return body;
  }

  function renewed(res: Response, sent: string) {
    const fresh = res.headers.get(SESSION_TOKEN_HEADER);
    if (fresh && sent) opts.onTokenRenewed?.(sent, fresh);
  }

  // One stream for all collections; each collection's pull stream hears RESYNC when its name
  // changed (the events carry no documents: the pull handler fetches them by checkpoint).
  const events = new Subject<StreamEvent>();
  const subs: Subscription[] = [];
  if (live && (opts.stream ?? true) && !guest) {
    // One stream request at a time: the token its response answers is the last one sent.
    let streamToken = '';
    subs.push(
      syncStream({
        url: `${opts.baseUrl}/api/sync/v1/stream`,
        fetch: doFetch,
        headers: () => {
          streamToken = opts.getToken() ?? '';
          return { authorization: `Bearer ${streamToken}`, [PROTOCOL_HEADER]: PROTOCOL_VERSION };
        },
        onResponse: (res, sentAt) => {
          opts.clock?.observe(Number(res.headers.get(SERVER_TIME_HEADER)), sentAt, Date.now());
          renewed(res, streamToken);
        },
        baseDelayMs: baseMs,
        maxDelayMs: maxMs,
        stallMs: opts.streamStallMs ?? STREAM_STALL_MS,
      }).subscribe(events),
    );
  }

  const states = {} as Replication['states'];
  for (const name of names) {
    const pushable = PUSHABLE.includes(name) && !guest;
    // RxDB stores no checkpoint from a pull answer without documents (its downstream stops
    // there), yet such an answer can move on: past a page of paid sets' questions held back from
    // this learner, or to a new `g` (docs/payments.md "Without a plan"). Carried here for the
    // next pull; a pull with documents stores its checkpoint as usual.
    let carried: PullCheckpoint | undefined;
    const state = replicateRxCollection<unknown, PullCheckpoint>({
      collection: db[name] as unknown as RxCollection<unknown>,
      // Checkpoints belong to one server and one protocol major version.
      replicationIdentifier: `pm-sync-v${PROTOCOL_VERSION.split('.')[0]}-${name}-${opts.baseUrl}`,
      live,
      retryTime: baseMs,
      waitForLeadership: opts.waitForLeadership ?? true,
      autoStart: true,
      pull: {
        batchSize: opts.pullBatchSize ?? PULL_BATCH,
        handler: async (checkpoint, batchSize) => {
          let from = carried && (!checkpoint || carried.rev >= checkpoint.rev) ? carried : checkpoint;
          for (;;) {
            const body = await request<PullResponse<Record<string, unknown>> & { checkpoint: PullCheckpoint }>(name, pullPath(from, batchSize));
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
        },
        stream$: events.pipe(
          filter((e) => e.type === 'RESYNC' || e.collections.includes(name)),
          map(() => 'RESYNC' as const),
        ),
      },
      ...(pushable && {
        push: {
          batchSize: opts.pushBatchSize ?? PUSH_BATCH,
          ...(opts.pushDelayMs && { waitBeforePersist: () => pushPause(opts.pushDelayMs!) }),
          handler: async (rows) => {
            const ids = rows.map((r) => String((r.newDocumentState as { id?: unknown }).id));
            try {
              const conflicts = await request<never[]>(name, 'push', {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(rows),
              });
              planRefused(ids, false);
              return conflicts;
            } catch (err) {
              if (err instanceof SyncPaymentRequiredError) planRefused(ids, true);
              throw err;
            }
          },
        },
      }),
    });
    // Exponential backoff with jitter: RxDB reads retryTime right after emitting the error.
    subs.push(
      state.error$.subscribe(() => {
        const n = (failures.get(name) ?? 0) + 1;
        failures.set(name, n);
        state.retryTime = authRefused ? maxMs : backoffDelay(n, baseMs, maxMs);
      }),
    );
    states[name] = state;
  }

  // A changed entitlement (a plan bought, ended or refunded) changes which paid sets' questions
  // the learner may download (docs/payments.md "Without a plan"): qs_detail is pulled again, with
  // its checkpoint's `g`, so the questions of a set a new plan opens arrive without a reload. The
  // server's stream announces qs_detail then too; this covers a stream that is down. Not for the
  // entitlement of the first pulls: qs_detail's own first pull already asks with the server's
  // current state.
  const entitlementState = states.entitlement;
  const detailState = states.qs_detail;
  if (live && entitlementState && detailState) {
    let started = false;
    void Promise.all([entitlementState.awaitInitialReplication(), detailState.awaitInitialReplication()])
      .then(() => {
        started = true;
      })
      .catch(() => undefined);
    subs.push(
      entitlementState.received$.subscribe(() => {
        if (started) events.next({ type: 'CHANGE', collections: ['qs_detail'] });
      }),
    );
  }

  // Pending uploads: attempts whose last change the server has not confirmed. The confirmed
  // version (updatedAt) of each attempt is kept in a local document, so the count survives
  // reloads; a pulled attempt is by definition confirmed.
  const acksReady = db.getLocal<Acks>(ACKS_KEY).then((d) => d ?? db.insertLocal<Acks>(ACKS_KEY, { acks: {} }).catch(() => db.getLocal<Acks>(ACKS_KEY)));
  let ackChain: Promise<unknown> = acksReady;
  const ack = (docs: { id: string; updatedAt: number }[]) => {
    ackChain = ackChain.then(async () => {
      const doc = await db.getLocal<Acks>(ACKS_KEY);
      const acks = { ...(doc?.get('acks') as Acks['acks'] | undefined) };
      for (const d of docs) acks[d.id] = Math.max(acks[d.id] ?? 0, d.updatedAt);
      await db.upsertLocal<Acks>(ACKS_KEY, { acks });
    }).catch(() => undefined);
  };
  const attempts = states.test_summary;
  if (attempts) subs.push(
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
  void acksReady.then(() => {
    // A guest's attempts wait for a login: counted by the guest replica itself (db/replica.ts).
    if (closed || guest) return;
    subs.push(
      combineLatest([db.test_summary.find().$, db.getLocal$<Acks>(ACKS_KEY)]).subscribe(([docs, acksDoc]) => {
        const acks = (acksDoc?.get('acks') as Acks['acks'] | undefined) ?? {};
        const waiting = docs.filter((d) => d.updatedAt > (acks[d.id] ?? -1)).map((d) => d.id);
        status({ pending: waiting.length, pendingIds: waiting });
      }),
    );
  });

  // Syncing while any collection is active; synced when all are idle and the last requests
  // succeeded.
  subs.push(
    combineLatest(names.map((n) => states[n].active$)).subscribe((active) => {
      if (active.some(Boolean)) status({ phase: 'syncing' });
      else if ([...failures.values()].every((n) => n === 0) && !authRefused) status({ phase: 'synced' });
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
      await ackChain;
    },
  };
}
