import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type AnyCollectionName as CollectionName, COLLECTIONS, EDITOR_COLLECTIONS } from '@pm/protocol/sync/envelopes';
import { type DB, engineOf } from '../db/client';
import { postgresPool } from './exclusive';
import type { Logger } from './logger';

/**
 * Tells connected devices which replicated collections changed (GET /api/sync/v1/stream).
 * A change of shared data (tags, sets) goes to everyone; a change of a person's own data only to
 * that person's connections. `createEventBus` is the bus of one process; on PostgreSQL,
 * `connectEventBus` puts PostgreSQL's LISTEN/NOTIFY behind the same interface, so that a change
 * accepted by one instance reaches the devices connected to every instance (docs/cluster.md).
 */
export type ChangeEvent = {
  collections: CollectionName[];
  personId?: string;
  /** Live tests' keys released to this person (only with `personId`): their devices get them in the stream itself. */
  keys?: ReleasedKey[];
};
/** A live test's key at its start (docs/live-tests.md "The key at scale"). */
export type ReleasedKey = { qsid: string; key: string };
type Listener = (collections: CollectionName[], keys?: ReleasedKey[]) => void;

export type EventBus = {
  /** Called after the change has committed: devices told now pull it at once. */
  emit: (e: ChangeEvent) => void;
  subscribe: (personId: string, listener: Listener) => () => void;
  listenerCount: () => number;
};

export function createEventBus(): EventBus {
  const byPerson = new Map<string, Set<Listener>>();
  let count = 0;
  return {
    emit(e) {
      const targets = e.personId ? [byPerson.get(e.personId) ?? new Set<Listener>()] : byPerson.values();
      const keys = e.personId ? e.keys : undefined;
      for (const set of targets) for (const l of set) l(e.collections, keys);
    },
    subscribe(personId, listener) {
      let set = byPerson.get(personId);
      if (!set) byPerson.set(personId, (set = new Set()));
      set.add(listener);
      count++;
      // Idempotent: a stream unsubscribes both when it is aborted and when its loop ends, and the
      // second call must not remove a newer connection's set (another tab or device of the same
      // person that subscribed in between) — that silenced its events until it reconnected.
      return () => {
        if (!set.delete(listener)) return;
        count--;
        if (set.size === 0 && byPerson.get(personId) === set) byPerson.delete(personId);
      };
    },
    listenerCount: () => count,
  };
}

/** A bus that may hold a connection of its own: close it before the database. */
export type SharedEventBus = EventBus & {
  /** Resolves once the bus hears the other instances (at once on SQLite). */
  ready: Promise<void>;
  close: () => Promise<void>;
};

/** The PostgreSQL channel the instances tell each other about changes on. */
export const CHANGES_CHANNEL = 'pm_changes';
/** The listening connection's application_name (pg_stat_activity). */
export const LISTENER_NAME = 'pm-change-listener';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; a batch is split below that. */
const MAX_PAYLOAD = 7000;
/** The listening connection is checked this often (a half-open TCP connection hears nothing, silently). */
export const LISTEN_CHECK_MS = 30_000;
/** Reconnection waits double from the first to the last. */
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

/** Every collection: what a device is told to pull when this instance may have missed changes. */
const ALL_COLLECTIONS: CollectionName[] = [...COLLECTIONS, ...EDITOR_COLLECTIONS];

/** One NOTIFY: the sending bus and its changes, `p` the person (absent: everyone), `c` the collections, `k` the person's released keys. */
type Payload = { o: string; e: { p?: string; c: CollectionName[]; k?: ReleasedKey[] }[] };

export type ConnectOptions = {
  log: Logger;
  /** How often the listening connection is checked (tests make it short). */
  checkEveryMs?: number;
};

/**
 * The event bus of a server instance. On SQLite (one instance) it is createEventBus. On
 * PostgreSQL:
 * - `emit` tells this instance's listeners at once, and the other instances through
 *   `NOTIFY pm_changes` sent in the next turn of the event loop on a connection of the pool: the
 *   changes of a turn (and of the turns while the previous NOTIFY was on its way) merged per
 *   person, split below PostgreSQL's payload limit. Every caller emits after its transaction has
 *   committed, so another instance's device that pulls on the news finds the change;
 * - a connection of its own (outside the pool) LISTENs and hands what other instances send to
 *   this instance's listeners (its own NOTIFYs come back too, and are skipped by their origin);
 * - when that connection is lost it is opened again, waiting 0.1 s doubling to 5 s; notifications
 *   sent meanwhile are lost, so once it listens again every device connected here is told to pull
 *   every collection. It is also checked every 30 s (a query), as a connection whose peer has
 *   vanished may never report an error.
 * A NOTIFY that fails is logged: devices then learn of that change at their next pull.
 */
export function connectEventBus(db: DB, opts: ConnectOptions): SharedEventBus {
  const local = createEventBus();
  if (engineOf(db) !== 'postgres') return { ...local, ready: Promise.resolve(), close: async () => undefined };
  const { log } = opts;
  const pool = postgresPool(db);
  const origin = randomBytes(8).toString('hex');

  // ── Sending ──
  let broadcast = new Set<CollectionName>();
  let personal = new Map<string, { c: Set<CollectionName>; k: ReleasedKey[] }>();
  let scheduled = false;
  /** The sending loop while it runs: one NOTIFY at a time, in order. */
  let sending: Promise<void> | null = null;

  const payloadsOf = (events: Payload['e']): string[] => {
    const out: string[] = [];
    let batch: Payload['e'] = [];
    let size = 0;
    for (const ev of events) {
      const n = JSON.stringify(ev).length + 1;
      if (batch.length > 0 && size + n > MAX_PAYLOAD) {
        out.push(JSON.stringify({ o: origin, e: batch } satisfies Payload));
        batch = [];
        size = 0;
      }
      batch.push(ev);
      size += n;
    }
    if (batch.length > 0) out.push(JSON.stringify({ o: origin, e: batch } satisfies Payload));
    return out;
  };

  /**
   * Sends what has been emitted, merged, until nothing is left: what is emitted while a NOTIFY is
   * on its way is merged into the next one (a slow database holds one batch, not a queue).
   */
  const send = async () => {
    while (broadcast.size > 0 || personal.size > 0) {
      const events: Payload['e'] = [];
      if (broadcast.size > 0) events.push({ c: [...broadcast] });
      for (const [p, { c, k }] of personal) events.push(k.length > 0 ? { p, c: [...c], k } : { p, c: [...c] });
      broadcast = new Set();
      personal = new Map();
      for (const payload of payloadsOf(events)) {
        try {
          await pool.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, payload]);
        } catch (err) {
          log.warn({ err }, 'change notification not sent to the other instances; their devices see the change at their next pull');
        }
      }
    }
  };
  const flush = () => {
    scheduled = false;
    if (sending) return;
    sending = send().finally(() => {
      sending = null;
    });
  };

  // ── Listening ──
  let client: pg.Client | null = null;
  let closed = false;
  let listening = false;
  let everListened = false;
  let wait = RECONNECT_MIN_MS;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));

  const received = (msg: pg.Notification) => {
    if (msg.channel !== CHANGES_CHANNEL || !msg.payload) return;
    let p: Payload;
    try {
      p = JSON.parse(msg.payload) as Payload;
    } catch {
      return;
    }
    if (p.o === origin || !Array.isArray(p.e)) return;
    for (const ev of p.e) local.emit(ev.p ? { collections: ev.c, personId: ev.p, ...(Array.isArray(ev.k) && { keys: ev.k }) } : { collections: ev.c });
  };

  const lost = (c: pg.Client, err?: Error) => {
    if (client !== c) return;
    client = null;
    listening = false;
    c.end().catch(() => undefined);
    if (closed) return;
    log.warn({ err }, 'change notifications: the listening connection was lost; connecting again');
    schedule();
  };

  const schedule = () => {
    if (closed || reconnectTimer) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      void listen();
    }, wait);
    reconnectTimer.unref();
    wait = Math.min(wait * 2, RECONNECT_MAX_MS);
  };

  const listen = async () => {
    if (closed) return;
    // Named, so that operators see it in pg_stat_activity (one per instance, idle in LISTEN).
    const c = new pg.Client({ ...pool.options, keepAlive: true, application_name: LISTENER_NAME });
    client = c;
    c.on('notification', received);
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c));
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      if (client === c) {
        client = null;
        c.end().catch(() => undefined);
        if (!closed) {
          log.warn({ err }, 'change notifications: cannot listen; trying again');
          schedule();
        }
      }
      return;
    }
    if (closed || client !== c) {
      c.end().catch(() => undefined);
      return;
    }
    listening = true;
    wait = RECONNECT_MIN_MS;
    // What other instances announced while nobody listened here is lost: everyone here pulls.
    if (everListened) local.emit({ collections: ALL_COLLECTIONS });
    everListened = true;
    resolveReady();
  };

  const check = setInterval(() => {
    const c = client;
    if (!c || !listening) return;
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 10 s')), 10_000).unref());
    Promise.race([c.query('SELECT 1'), timeout]).catch((err: unknown) => lost(c, err as Error));
  }, opts.checkEveryMs ?? LISTEN_CHECK_MS);
  check.unref();

  void listen();

  return {
    emit(e) {
      local.emit(e);
      if (closed) return;
      if (e.personId) {
        let mine = personal.get(e.personId);
        if (!mine) personal.set(e.personId, (mine = { c: new Set(), k: [] }));
        for (const c of e.collections) mine.c.add(c);
        if (e.keys) mine.k.push(...e.keys);
      } else {
        for (const c of e.collections) broadcast.add(c);
      }
      // The changes of this turn, in one NOTIFY sent in the next.
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    subscribe: local.subscribe,
    listenerCount: local.listenerCount,
    ready,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(check);
      if (reconnectTimer) clearTimeout(reconnectTimer);
      // What was emitted before: sent, as the database is still open.
      if (scheduled) flush();
      await sending;
      const c = client;
      client = null;
      listening = false;
      resolveReady();
      if (c) await c.end().catch(() => undefined);
    },
  };
}
