import type { Observable } from 'rxjs';
import type { AnyCollectionName, StreamEvent } from '@pm/protocol/sync/envelopes';
import { SESSION_TOKEN_HEADER } from '@pm/protocol/session';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, SERVER_TIME_HEADER } from '@pm/protocol/version';
import type { ServerClock } from './server-clock';
import { readText, REQUEST_STALL_MS, stallGuard, STREAM_STALL_MS } from './stall-guard';
import { syncStream } from './sync-stream';

/*
 * The one HTTP transport of /api/sync/v1 (docs/replication.md "The device side"), used by the
 * learner's replication (db/learner/replication.ts) and the editor's (db/editor/
 * editor-collection-replication.ts) alike. Every request, and the stream:
 * - sends the protocol header (another major version is answered 426) and the bearer token, read
 *   at each request so that a new login takes effect at once;
 * - is given up after a while without progress (stall-guard.ts, docs/replication.md "Silent
 *   connections"), so that a black-holed or half-open connection never holds a replication;
 * - feeds the server clock with the response's X-Server-Time ("Server time");
 * - hands a token the server renewed to the session (docs/security.md "Sessions and logout": a
 *   token more than a day old comes back renewed, so a device that syncs now and then never
 *   reaches its expiry);
 * - turns 401 into SyncAuthError and 402 into SyncPaymentRequiredError.
 * What a caller does with the result (retry times, the sync status) it learns through onOutcome.
 */

/** The server refused the token: retrying cannot help until the person signs in again. */
export class SyncAuthError extends Error {}

/**
 * 402: the server refused an attempt at a paid set the learner's plan does not cover, taken
 * online (docs/payments.md "Without a plan"). Nothing was stored there; the attempt stays on the
 * device and is pushed again with the usual backoff, and goes up once a plan covers it.
 */
export class SyncPaymentRequiredError extends Error {}

/**
 * How a request ended: `unreachable` (no answer, or the answer stalled), `signed-out` (401),
 * `payment-required` (402), `failed` (any other error status) or `ok`. A request that was never
 * sent (no token) reports nothing.
 */
export type RequestOutcome = 'unreachable' | 'signed-out' | 'payment-required' | 'failed' | 'ok';

export type TransportOptions = {
  /** Origin of the server, e.g. window.location.origin. */
  baseUrl: string;
  /** The current bearer token; read on every request so a new login takes effect at once. */
  getToken: () => string | null;
  /** Requests go without a token (a guest's device pulls the free sets without a login). */
  anonymous?: boolean;
  /** A response renewed the token it was sent with. */
  onTokenRenewed?: (sent: string, fresh: string) => void;
  /** fetch to use (tests wrap it to inject failures). */
  fetch?: typeof fetch;
  clock?: ServerClock;
  /** Give up a request after this long without progress (default REQUEST_STALL_MS). */
  requestStallMs?: number;
  /** Told how each request ended, before its result or error reaches the caller. */
  onOutcome?: (outcome: RequestOutcome, collection: AnyCollectionName) => void;
};

/**
 * A pull checkpoint as the server returns it: its revision, and for `qs_detail` `g`, the server's
 * fingerprint of which paid sets the learner may download (docs/payments.md "Without a plan"). It
 * is kept as the server sent it and sent back with the next pull, so that the server sends the
 * questions a new plan opens (they are older than `rev`) and nothing else.
 */
export type PullCheckpoint = { rev: number; g?: string };

/** The pull's query: revision and batch size, and the checkpoint's `g` when it has one. */
export function pullPath(checkpoint: PullCheckpoint | undefined, batchSize: number): string {
  const g = checkpoint?.g;
  return `pull?rev=${checkpoint?.rev ?? 0}&limit=${batchSize}${typeof g === 'string' ? `&g=${encodeURIComponent(g)}` : ''}`;
}

export type StreamTiming = { baseDelayMs: number; maxDelayMs: number; stallMs?: number };

export type SyncTransport = {
  /** GET {collection}/pull: the documents after `checkpoint`, at most `batchSize`, and the next checkpoint. */
  pull<D, C extends PullCheckpoint = PullCheckpoint>(collection: AnyCollectionName, checkpoint: PullCheckpoint | undefined, batchSize: number): Promise<{ documents: D[]; checkpoint: C }>;
  /** POST {collection}/push with RxDB's rows; the answer as the collection's endpoint gives it. */
  push<A>(collection: AnyCollectionName, rows: readonly unknown[]): Promise<A>;
  /** GET /stream, reconnected with backoff (sync-stream.ts); each response feeds the clock and the token. */
  stream(timing: StreamTiming): Observable<StreamEvent>;
  /** RxDB's replication identifier of a collection: checkpoints belong to one server and one protocol major version. */
  replicationIdentifier(collection: AnyCollectionName): string;
};

export function createSyncTransport(opts: TransportOptions): SyncTransport {
  const doFetch = opts.fetch ?? globalThis.fetch.bind(globalThis);
  const anonymous = opts.anonymous === true;
  const tell = (outcome: RequestOutcome, collection: AnyCollectionName) => opts.onOutcome?.(outcome, collection);

  /** Hands the session a token the server renewed in this response. */
  function noteRenewedToken(res: Response, sent: string): void {
    const fresh = res.headers.get(SESSION_TOKEN_HEADER);
    if (fresh && sent) opts.onTokenRenewed?.(sent, fresh);
  }

  /** Sends one request under the stall guard and reads its whole body; a network failure is `unreachable`. */
  async function send(collection: AnyCollectionName, path: string, token: string | null, init: RequestInit): Promise<{ res: Response; text: string }> {
    const guard = stallGuard(opts.requestStallMs ?? REQUEST_STALL_MS);
    try {
      const res = await doFetch(`${opts.baseUrl}/api/sync/v1/${collection}/${path}`, {
        ...init,
        cache: 'no-store',
        signal: guard.signal,
        headers: { accept: 'application/json', ...(token && { authorization: `Bearer ${token}` }), [PROTOCOL_HEADER]: PROTOCOL_VERSION, ...(init.headers as Record<string, string>) },
      });
      guard.touch();
      return { res, text: await readText(res, guard) };
    } catch (err) {
      tell('unreachable', collection);
      throw err;
    } finally {
      guard.done();
    }
  }

  /** Refuses an error status with the error its caller retries on (or waits for a login after). */
  function refuseErrorStatus(collection: AnyCollectionName, path: string, status: number): void {
    if (status === 401) {
      tell('signed-out', collection);
      throw new SyncAuthError(`sync refused the token (${status})`);
    }
    if (status === 402) {
      tell('payment-required', collection);
      throw new SyncPaymentRequiredError(`sync ${collection}/${path} answered 402`);
    }
    tell('failed', collection);
    throw new Error(`sync ${collection}/${path} answered ${status}`);
  }

  async function request<T>(collection: AnyCollectionName, path: string, init: RequestInit = {}): Promise<T> {
    const token = anonymous ? null : opts.getToken();
    if (!token && !anonymous) throw new SyncAuthError('not signed in');
    const sentAt = Date.now();
    const { res, text } = await send(collection, path, token, init);
    opts.clock?.observe(Number(res.headers.get(SERVER_TIME_HEADER)), sentAt, Date.now());
    if (token) noteRenewedToken(res, token);
    if (!res.ok) refuseErrorStatus(collection, path, res.status);
    const body = JSON.parse(text) as T;
    tell('ok', collection);
    return body;
  }

  return {
    pull: (collection, checkpoint, batchSize) => request(collection, pullPath(checkpoint, batchSize)),
    push: (collection, rows) => request(collection, 'push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rows) }),
    stream(timing) {
      // One stream request at a time: the token its response answers is the last one sent.
      let streamToken = '';
      return syncStream({
        url: `${opts.baseUrl}/api/sync/v1/stream`,
        fetch: doFetch,
        headers: () => {
          streamToken = opts.getToken() ?? '';
          return { authorization: `Bearer ${streamToken}`, [PROTOCOL_HEADER]: PROTOCOL_VERSION };
        },
        onResponse: (res, sentAt) => {
          opts.clock?.observe(Number(res.headers.get(SERVER_TIME_HEADER)), sentAt, Date.now());
          noteRenewedToken(res, streamToken);
        },
        baseDelayMs: timing.baseDelayMs,
        maxDelayMs: timing.maxDelayMs,
        stallMs: timing.stallMs ?? STREAM_STALL_MS,
      });
    },
    replicationIdentifier: (collection) => `pm-sync-v${PROTOCOL_VERSION.split('.')[0]}-${collection}-${opts.baseUrl}`,
  };
}
