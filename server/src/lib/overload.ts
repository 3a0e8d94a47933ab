import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { MSG } from '../../../sync-protocol/src/messages';
import type { Logger } from './logger';

/**
 * Load shedding (issue 4): when the server is really overloaded, an arriving API request is
 * answered at once with 503, `Retry-After` and `{ success: false, msg, code }` instead of joining
 * a queue. A device keeps what it wanted to send (attempts live in its replica) and sends it again
 * after the delay; the requests that are admitted stay fast, and no connection is dropped.
 *
 * The decision is taken before Hono sees the request (a wrapper around `app.fetch`), and under
 * Node before @hono/node-server builds anything for it (`refuseEarly`, called by serve.ts): a
 * queue that forms in front of the handler cannot be seen from inside it, and in a storm the cost
 * of each refusal is what the admitted requests wait behind. Three signals, each cheap to read:
 *
 * - requests in flight: admitted and not yet answered. Most API work waits on something (token
 *   signature check and password hashing on the thread pool, files), and these requests pile up
 *   here;
 * - the current event-loop turn: when many requests are read from their sockets in one turn and
 *   that turn has already run for long, the requests still being read have waited at least that
 *   long in the kernel. This sees the queue of synchronous work (SQLite) that the first signal
 *   misses, and it sees it while the turn is running, unlike an event-loop delay histogram;
 * - new connections: many accepted within a short window is a storm of devices connecting. Node
 *   accepts one connection per event-loop turn, so while admitted work makes turns long the rest
 *   of a storm waits unaccepted in the kernel; refusing keeps the turns short (see CONN_BURST).
 */
export const OVERLOAD = {
  /**
   * Admitted requests not yet answered. A browser opens at most 6 connections to a host, and the
   * API and sync benchmarks use 10, so normal use stays far below. An admitted push costs about
   * 1 ms of CPU with its connection and first token check on this project's 2-vCPU test machine,
   * so 64 waiting requests are already ~60 ms of queue.
   */
  MAX_IN_FLIGHT: 64,
  /**
   * One event-loop turn that has read more than this many requests from sockets... A browser
   * cannot reach it (6 connections, at most one request each per turn), nor can the benchmarks'
   * 10 connections.
   */
  TURN_MIN_REQUESTS: 32,
  /**
   * ...and has run for this long: the requests it reads now waited at least this long, and the
   * ones it admitted still have to finish. A tenth of the 250 ms p99 budget of issue 4: the rest
   * goes to refusing the others (~0.1-0.25 ms each) and finishing the admitted ones.
   */
  TURN_MAX_MS: 25,
  /**
   * This many new connections accepted within CONN_WINDOW_MS is a storm of devices connecting at
   * once, and then requests are refused until the connections come slower. Node 20's libuv
   * accepts one connection per event-loop turn: while admitted requests make each turn long, the
   * rest of a storm waits in the kernel's accept queue, unread, however fast its requests would be
   * refused once read. Refusing keeps the turns short, so the queue drains in milliseconds. A
   * browser opens at most 6 connections to a host; the benchmarks' steady loads keep theirs open.
   */
  CONN_BURST: 16,
  CONN_WINDOW_MS: 25,
  /**
   * Retry-After is drawn from [MIN, MAX] seconds so that refused devices do not come back all in
   * the same second (clients add their own jitter on top): 1,000 refusals spread over 3-4 s are
   * ~300 requests/s, within what one process handles even on a busy 2-vCPU machine (~1,000
   * single-attempt pushes per second, new connection and token check included).
   */
  RETRY_AFTER_MIN_S: 1,
  RETRY_AFTER_MAX_S: 3,
  /** At most one log line per this many ms about refused requests (logging each would add load). */
  LOG_EVERY_MS: 1000,
} as const;

const REASONS = ['in-flight', 'busy-turn', 'connection-storm'] as const;
export type OverloadReason = (typeof REASONS)[number];

/** Where the monitor reads the time; tests replace it. */
export type LoadClock = {
  now: () => number;
  /** Runs `fn` after the current event-loop turn (setImmediate). */
  afterTurn: (fn: () => void) => void;
};
const realClock: LoadClock = { now: () => performance.now(), afterTurn: (fn) => void setImmediate(fn) };

export type LoadMonitor = {
  /**
   * Called as a request arrives, before any work on it. Null admits it (then call `finished` once
   * it is answered); otherwise the reason to refuse it. `fromSocket` is false for requests made
   * in-process (app.request in tests), which do not arrive through event-loop turns.
   */
  admit: (fromSocket: boolean) => OverloadReason | null;
  finished: () => void;
  /** Called as the server accepts a new connection. */
  connected: () => void;
  inFlight: () => number;
};

export function createLoadMonitor(
  clock: LoadClock = realClock,
  limits: Pick<typeof OVERLOAD, 'MAX_IN_FLIGHT' | 'TURN_MIN_REQUESTS' | 'TURN_MAX_MS' | 'CONN_BURST' | 'CONN_WINDOW_MS'> = OVERLOAD,
): LoadMonitor {
  // When the last CONN_BURST connections were accepted (a ring; -Infinity until filled).
  const accepted: number[] = new Array<number>(limits.CONN_BURST).fill(Number.NEGATIVE_INFINITY);
  let nextSlot = 0;
  let inFlight = 0;
  // The turn in which the first request since the last check phase arrived, and its arrivals.
  let turnStart = 0;
  let turnArrivals = 0;
  let marked = false;
  const endTurn = () => {
    marked = false;
  };
  return {
    admit(fromSocket) {
      if (fromSocket) {
        const now = clock.now();
        if (!marked) {
          marked = true;
          turnStart = now;
          turnArrivals = 0;
          clock.afterTurn(endTurn);
        }
        turnArrivals++;
        if (turnArrivals > limits.TURN_MIN_REQUESTS && now - turnStart >= limits.TURN_MAX_MS) return 'busy-turn';
        // The oldest of the last CONN_BURST connections came within the window.
        if (now - accepted[nextSlot]! <= limits.CONN_WINDOW_MS) return 'connection-storm';
      }
      if (inFlight >= limits.MAX_IN_FLIGHT) return 'in-flight';
      inFlight++;
      return null;
    },
    finished() {
      inFlight--;
    },
    connected() {
      accepted[nextSlot] = clock.now();
      nextSlot = (nextSlot + 1) % limits.CONN_BURST;
    },
    inFlight: () => inFlight,
  };
}

/**
 * Marks a Node request that the early check (`refuseEarly`) has already admitted, with whether it
 * is still counted in flight.
 */
const ADMITTED = Symbol('admitted by the load monitor');
type MarkedIncoming = IncomingMessage & { [ADMITTED]?: { counted: boolean } };

/**
 * An app's fetch wrapped by `shedOverload`. `refuseEarly` is the same decision taken on Node's own
 * request and response objects, before @hono/node-server builds anything for the request: the
 * server (serve.ts) calls it first, so that a refusal in a storm costs only Node's parsing and a
 * written answer. It returns true when it answered (503); an admitted request then goes on to
 * `fetch`, which does not count it a second time.
 */
export type ShedFetch<A extends unknown[]> = ((req: Request, ...rest: A) => Response | Promise<Response>) & {
  refuseEarly: (incoming: IncomingMessage, outgoing: ServerResponse) => boolean;
  /** The server calls it for every connection it accepts (the connection-storm signal). */
  connected: () => void;
};

/**
 * Wraps an app's fetch: requests under `/api/` pass the load monitor first; refused ones get a
 * 503 built without touching the app (a plain string body and header object, which
 * @hono/node-server writes straight to the socket). Static files are never refused.
 */
export function shedOverload<A extends unknown[]>(
  fetch: (req: Request, ...rest: A) => Response | Promise<Response>,
  opts: { monitor: LoadMonitor; log: Logger; headers: () => Record<string, string>; random?: () => number },
): ShedFetch<A> {
  const { monitor, log } = opts;
  const random = opts.random ?? Math.random;
  const body = JSON.stringify({ success: false, msg: MSG.serverBusy, code: 'RATE_LIMITED' });
  const bodyLength = String(Buffer.byteLength(body));
  // Refusals are counted and logged at most once per LOG_EVERY_MS: a line per refusal would add
  // to the load it reports.
  let refused = 0;
  const reasons = Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<OverloadReason, number>;
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    flushTimer = null;
    log.warn({ refused, reasons: { ...reasons }, inFlight: monitor.inFlight() }, 'overloaded: refused requests with 503');
    refused = 0;
    for (const r of REASONS) reasons[r] = 0;
  };
  const done = () => monitor.finished();
  /** Counts out a request refuseEarly admitted, once, whichever of its two ends comes first. */
  const countOut = (state: { counted: boolean }) => {
    if (!state.counted) return;
    state.counted = false;
    done();
  };
  const span = OVERLOAD.RETRY_AFTER_MAX_S - OVERLOAD.RETRY_AFTER_MIN_S + 1;
  /** Counts a refusal (logged in batches) and answers its headers, with a drawn Retry-After. */
  const refusal = (reason: OverloadReason): Record<string, string> => {
    refused++;
    reasons[reason]++;
    if (!flushTimer) {
      flushTimer = setTimeout(flush, OVERLOAD.LOG_EVERY_MS);
      flushTimer.unref();
    }
    const retryAfter = OVERLOAD.RETRY_AFTER_MIN_S + Math.min(span - 1, Math.floor(random() * span));
    return { ...opts.headers(), 'content-type': 'application/json', 'retry-after': String(retryAfter) };
  };
  const isApi = (path: string) => path.startsWith('/api/');

  const shed = ((req: Request, ...rest: A) => {
    const url = req.url;
    if (!isApi(url.slice(url.indexOf('/', url.indexOf('//') + 2)))) return fetch(req, ...rest);
    // Under @hono/node-server the env is { incoming, outgoing }; app.request() has none.
    const incoming = (rest[0] as { incoming?: MarkedIncoming } | undefined)?.incoming;
    // Admitted by refuseEarly already: counted out here as any other, or by its close handler.
    const early = incoming?.[ADMITTED];
    const reason = early ? null : monitor.admit(incoming !== undefined);
    if (reason === null) {
      // Out of flight once the app has its response (a stream's body goes on without it).
      const finished = early ? () => countOut(early) : done;
      let res: Response | Promise<Response>;
      try {
        res = fetch(req, ...rest);
      } catch (err) {
        finished();
        throw err;
      }
      if (res instanceof Promise) return res.finally(finished);
      finished();
      return res;
    }
    return new Response(body, { status: 503, headers: refusal(reason) });
  }) as ShedFetch<A>;

  shed.connected = () => monitor.connected();
  shed.refuseEarly = (incoming: MarkedIncoming, outgoing) => {
    if (!isApi(incoming.url ?? '')) return false;
    const reason = monitor.admit(true);
    if (reason === null) {
      const state = { counted: true };
      incoming[ADMITTED] = state;
      // Should the request never reach the app (@hono/node-server refusing it), its response's
      // close counts it out.
      outgoing.once('close', () => countOut(state));
      return false;
    }
    // The unread body is drained by Node once the answer is written (keep-alive stays usable).
    outgoing.writeHead(503, { ...refusal(reason), 'content-length': bodyLength });
    outgoing.end(body);
    return true;
  };
  return shed;
}
