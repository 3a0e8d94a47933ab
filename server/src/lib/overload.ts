import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { LRUCache } from 'lru-cache';
import { MSG } from '@pm/protocol/messages';
import type { Logger } from './logger';

/**
 * Load shedding (docs/benchmarks.md "bench:sync"): when the server is really overloaded, an arriving API request is
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
 *
 * Each signal is fair per source (docs/security.md "Production, load shedding, logs, files": a burst of new connections from one client made the
 * shedder refuse a signed-in user's requests while nothing was in flight). The monitor counts
 * connections, in-flight requests and a turn's requests per client address (`sourceKey`); when a
 * signal fires it refuses the sources holding more than their share first, and everyone only
 * when the sources within their share make the overload themselves (many devices at once is
 * real load). When one source IS the storm, as in bench:sync where 1,000 devices share one
 * address, refusing that source is exactly what the storm protection did before.
 */
export const OVERLOAD = {
  /**
   * Admitted requests not yet answered. A browser opens at most 6 connections to a host, and the
   * API and sync benchmarks use 10, so normal use stays far below. An admitted push costs about
   * 1 ms of CPU with its connection and first token check on this project's 2-vCPU test machine,
   * so 64 waiting requests are already ~60 ms of queue. Past it, a source is refused once it
   * holds its share (MAX_IN_FLIGHT divided among the sources with requests in flight), so one
   * source holding every slot (slow uploads, say) does not shut the others out.
   */
  MAX_IN_FLIGHT: 64,
  /**
   * ...and past this many in flight every request is refused, whoever sends it: the sources
   * below their share have used the room left by those above it, and the queue (~90 ms) is real
   * overload.
   */
  HARD_MAX_IN_FLIGHT: 96,
  /**
   * One event-loop turn that has read more than this many requests from sockets... A browser
   * cannot reach it (6 connections, at most one request each per turn), nor can the benchmarks'
   * 10 connections.
   */
  TURN_MIN_REQUESTS: 32,
  /**
   * ...and has run for this long: the requests it reads now waited at least this long, and the
   * ones it admitted still have to finish. A tenth of the storm's 250 ms p99 budget (docs/benchmarks.md "bench:sync"): the rest
   * goes to refusing the others (~0.1-0.25 ms each) and finishing the admitted ones. In such a
   * turn the sources that sent more than SOURCE_REQUESTS_PER_TURN of its requests are refused;
   * everyone is only when the other sources' requests alone are more than TURN_MIN_REQUESTS.
   */
  TURN_MAX_MS: 25,
  /** Requests one source can have read in one turn without being the cause of a busy turn (a browser's 6 connections). */
  SOURCE_REQUESTS_PER_TURN: 6,
  /**
   * This many new connections accepted within CONN_WINDOW_MS is a storm of devices connecting at
   * once, and then requests are refused until the connections come slower. Node 20's libuv
   * accepts one connection per event-loop turn: while admitted requests make each turn long, the
   * rest of a storm waits in the kernel's accept queue, unread, however fast its requests would be
   * refused once read. Refusing keeps the turns short, so the queue drains in milliseconds. A
   * browser opens at most 6 connections to a host; the benchmarks' steady loads keep theirs open.
   * When a source made more than SOURCE_CONNECTIONS of those CONN_BURST connections, the storm is
   * that source's, and only requests arriving from it are refused (docs/security.md "Production, load shedding, logs, files": one client's burst
   * had shut every signed-in user out). A storm without such a source (many devices, a few
   * connections each) is real load, and refuses everyone.
   */
  CONN_BURST: 16,
  CONN_WINDOW_MS: 25,
  /** Connections of one source among a storm's CONN_BURST that make it the storm's cause (a browser opens at most 6). */
  SOURCE_CONNECTIONS: 6,
  /**
   * ...or new connections of one source per second (counted with an exponential decay over
   * SOURCE_RATE_MS), so that a burst spread over a few addresses, within a share of the 16 each, is
   * still theirs. A browser keeps its connections open; a client that opens one per request
   * (no keep-alive) stays below at 10-20 requests a second. A storm is ~640 a second.
   */
  SOURCE_CONNECTIONS_PER_S: 32,
  SOURCE_RATE_MS: 1000,
  /**
   * Sources (client addresses) whose load is tracked, least recently seen forgotten first: the
   * memory stays bounded however many addresses (spoofed forwarding headers, IPv6 privacy
   * addresses) arrive. A forgotten source only loses its history, never a request's accounting.
   */
  MAX_SOURCES: 10_000,
  /**
   * Retry-After is drawn from [MIN, MAX] seconds so that refused devices do not come back all in
   * the same second (clients add their own jitter on top): 1,000 refusals spread over 3-4 s are
   * ~300 requests/s, within what one process handles even on a busy 2-vCPU machine (~1,000
   * single-attempt pushes per second, new connection and token check included).
   */
  RETRY_AFTER_MIN_S: 1,
  RETRY_AFTER_MAX_S: 3,
  /**
   * A replication push of test summaries (a device sending its answers) that a signal would
   * refuse waits instead, unread, in a queue of this many at most (the parking lot, see
   * `shedOverload`), and is admitted as requests in flight finish. A refused push costs its device
   * at least RETRY_AFTER_MIN_S and a new request; waiting costs the server a socket and the
   * request's headers (its body stays in the socket's buffers: Node stops reading a request
   * nobody reads), and in a submission storm the pushes admitted together share one transaction
   * (lib/group-commit.ts), so the storm is done sooner than its refusals would have come back
   * (docs/benchmarks.md "bench:sync"). A pull of `live_key` waits the same way (see PARKABLE).
   */
  PARK_MAX: 2048,
  /**
   * ...for at most this long: a push not admitted by then is refused as before (503 with
   * Retry-After). A refused device waits Retry-After (1-3 s) and the client's jitter (up to 1 s),
   * 2.5 s on average, before it even sends again: a push admitted within 2 s is better off.
   */
  PARK_MAX_MS: 2000,
  /** At most one log line per this many ms about refused requests (logging each would add load). */
  LOG_EVERY_MS: 1000,
  /** Sources named (with their refusals) in that line, the most refused first. */
  LOG_TOP_SOURCES: 5,
} as const;

/**
 * What is parked rather than refused (modules/sync/sync.routes.ts): the replication push of test
 * summaries, and the pull of `live_key`. At a live test's start the server itself tells every
 * registered device to pull its key at the same moment (docs/live-tests.md "The key at scale"):
 * refused, those devices would come back only after Retry-After (1-3 s) and their jitter, while
 * a pull costs well under a millisecond and the herd is gone in about a second.
 */
const PARKABLE: readonly { method: string; path: RegExp }[] = [
  { method: 'POST', path: /^\/api\/sync\/v1\/test_summary\/push(?:[?#]|$)/ },
  { method: 'GET', path: /^\/api\/sync\/v1\/live_key\/pull(?:[?#]|$)/ },
];
const parkable = (method: string | undefined, url: string) => PARKABLE.some((p) => p.method === method && p.path.test(url));

/**
 * The providers' callbacks, never shed: the payment providers' webhooks
 * (modules/payments/payments.routes.ts) and the SMS providers' delivery reports and inbound
 * messages (modules/sms/adapter.ts SMS_CALLBACK_PATHS). A provider may not send a refused
 * callback again (Twilio does not retry an inbound message), and an inbound one can be a
 * learner's answers (docs/sms.md "Answers by SMS"); their rate is the provider's, and a forged
 * one costs a signature check.
 */
const WEBHOOK_PATH = /^\/api\/(?:(?:phonepe|razorpay)\/webhook|sms\/(?:twilio|msg91)\/(?:status|report|inbound))(?:[?#]|$)/;

const REASONS = ['in-flight', 'busy-turn', 'connection-storm'] as const;
export type OverloadReason = (typeof REASONS)[number];

/** Where the monitor reads the time; tests replace it. */
export type LoadClock = {
  now: () => number;
  /** Runs `fn` after the current event-loop turn (setImmediate). */
  afterTurn: (fn: () => void) => void;
};
const realClock: LoadClock = { now: () => performance.now(), afterTurn: (fn) => void setImmediate(fn) };

/** What the monitor knows of one source (a client address); see `sourceKey`. */
export type SourceLoad = {
  readonly key: string;
  /** Its requests admitted and not yet answered. */
  inFlight: number;
  /** How many of the last CONN_BURST connections the server accepted are its. */
  recentConnections: number;
  /** Its new connections, decayed exponentially over SOURCE_RATE_MS, as of `rateAt`. */
  rate: number;
  rateAt: number;
  /** The turn `turnRequests` counts in, and its requests read from sockets in that turn. */
  turn: number;
  turnRequests: number;
};

/**
 * Where a request comes from. Without a proxy both are the socket's remote address; behind a
 * trusted proxy (TRUST_PROXY) `client` is the address the proxy saw, while connections (and
 * their storms) can only be told apart by `peer`, the proxy's own address.
 */
export type Arrival = {
  client: string;
  peer: string;
  /** Set by `admit` when it admits the request: the source whose share it holds, for `finished`. */
  held?: SourceLoad;
};

/**
 * The key a client address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6
 * address as its IPv4), an IPv6 address by its /64, which is one subscriber's network (a device
 * draws new addresses inside it at will).
 */
export function sourceKey(address: string): string {
  if (!address.includes(':')) return address;
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && lower.includes('.')) return lower.slice(7);
  const bare = lower.split('%')[0] ?? lower;
  const gap = bare.indexOf('::');
  let groups: string[];
  if (gap < 0) {
    groups = bare.split(':');
  } else {
    const head = bare.slice(0, gap).split(':').filter(Boolean);
    const tail = bare.slice(gap + 2).split(':').filter(Boolean);
    groups = [...head, ...new Array<string>(Math.max(0, 8 - head.length - tail.length)).fill('0'), ...tail];
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export type LoadMonitor = {
  /**
   * Called as a request arrives, before any work on it. Null admits it (then call `finished`
   * with the same `arrival` once it is answered); otherwise the reason to refuse it.
   * `fromSocket` is false for requests made in-process (app.request in tests), which do not
   * arrive through event-loop turns; they have no arrival and count as one source.
   */
  admit: (fromSocket: boolean, arrival?: Arrival) => OverloadReason | null;
  finished: (arrival?: Arrival) => void;
  /** Called as the server accepts a new connection, with the address it comes from. */
  connected: (peer?: string) => void;
  inFlight: () => number;
};

type Limits = Record<
  | 'MAX_IN_FLIGHT'
  | 'HARD_MAX_IN_FLIGHT'
  | 'TURN_MIN_REQUESTS'
  | 'TURN_MAX_MS'
  | 'SOURCE_REQUESTS_PER_TURN'
  | 'CONN_BURST'
  | 'CONN_WINDOW_MS'
  | 'SOURCE_CONNECTIONS'
  | 'SOURCE_CONNECTIONS_PER_S'
  | 'SOURCE_RATE_MS'
  | 'MAX_SOURCES',
  number
>;

export function createLoadMonitor(clock: LoadClock = realClock, limits: Limits = OVERLOAD): LoadMonitor {
  const newSource = (key: string): SourceLoad => ({ key, inFlight: 0, recentConnections: 0, rate: 0, rateAt: 0, turn: -1, turnRequests: 0 });
  const sources = new LRUCache<string, SourceLoad>({ max: limits.MAX_SOURCES });
  // Requests made in-process (tests) and connections without an address.
  const inProcess = newSource('in-process');
  const sourceOf = (address: string | undefined): SourceLoad => {
    if (address === undefined) return inProcess;
    const key = sourceKey(address);
    let s = sources.get(key);
    if (!s) {
      s = newSource(key);
      sources.set(key, s);
    }
    return s;
  };

  // When the last CONN_BURST connections were accepted, and from whom (a ring; -Infinity until filled).
  const acceptedAt: number[] = new Array<number>(limits.CONN_BURST).fill(Number.NEGATIVE_INFINITY);
  const acceptedFrom: (SourceLoad | null)[] = new Array<SourceLoad | null>(limits.CONN_BURST).fill(null);
  let nextSlot = 0;
  const rateNow = (s: SourceLoad, now: number) => s.rate * Math.exp((s.rateAt - now) / limits.SOURCE_RATE_MS);
  const maxRate = (limits.SOURCE_CONNECTIONS_PER_S * limits.SOURCE_RATE_MS) / 1000;
  /** A source that is (part of) the cause of a storm: more than its few of it, or connecting fast. */
  const stormy = (s: SourceLoad, now: number) => s.recentConnections > limits.SOURCE_CONNECTIONS || rateNow(s, now) > maxRate;

  let inFlight = 0;
  // Sources with requests in flight (the in-flight share is MAX_IN_FLIGHT divided among them).
  let activeSources = 0;

  // The turn in which the first request since the last check phase arrived, and its arrivals:
  // all of them, and those of sources that stayed within SOURCE_REQUESTS_PER_TURN.
  let turn = 0;
  let turnStart = 0;
  let turnArrivals = 0;
  let fairArrivals = 0;
  let marked = false;
  const endTurn = () => {
    marked = false;
  };

  return {
    admit(fromSocket, arrival) {
      const client = arrival ? sourceOf(arrival.client) : inProcess;
      if (fromSocket) {
        const now = clock.now();
        if (!marked) {
          marked = true;
          turn++;
          turnStart = now;
          turnArrivals = 0;
          fairArrivals = 0;
          clock.afterTurn(endTurn);
        }
        turnArrivals++;
        if (client.turn !== turn) {
          client.turn = turn;
          client.turnRequests = 0;
        }
        client.turnRequests++;
        if (client.turnRequests <= limits.SOURCE_REQUESTS_PER_TURN) fairArrivals++;
        // Its earlier requests of this turn now count as the source's excess too.
        else if (client.turnRequests === limits.SOURCE_REQUESTS_PER_TURN + 1) fairArrivals -= limits.SOURCE_REQUESTS_PER_TURN;
        if (turnArrivals > limits.TURN_MIN_REQUESTS && now - turnStart >= limits.TURN_MAX_MS) {
          if (client.turnRequests > limits.SOURCE_REQUESTS_PER_TURN || fairArrivals > limits.TURN_MIN_REQUESTS) return 'busy-turn';
        }
        // The oldest of the last CONN_BURST connections came within the window: a storm. It is
        // the storm of the sources that made more than their few of it or connect fast, if any
        // did; one of many devices connecting at once each is real load, and waits too.
        if (now - acceptedAt[nextSlot]! <= limits.CONN_WINDOW_MS) {
          const peer = !arrival ? inProcess : arrival.peer === arrival.client ? client : sourceOf(arrival.peer);
          if (stormy(peer, now) || !acceptedFrom.some((s) => s !== null && stormy(s, now))) return 'connection-storm';
        }
      }
      if (inFlight >= limits.MAX_IN_FLIGHT) {
        if (inFlight >= limits.HARD_MAX_IN_FLIGHT) return 'in-flight';
        const holders = activeSources + (client.inFlight === 0 ? 1 : 0);
        if (client.inFlight >= Math.floor(limits.MAX_IN_FLIGHT / holders)) return 'in-flight';
      }
      inFlight++;
      if (client.inFlight++ === 0) activeSources++;
      if (arrival) arrival.held = client;
      return null;
    },
    finished(arrival) {
      inFlight--;
      const s = arrival?.held ?? inProcess;
      if (--s.inFlight === 0) activeSources--;
    },
    connected(peer) {
      const now = clock.now();
      const s = sourceOf(peer);
      const old = acceptedFrom[nextSlot];
      if (old) old.recentConnections--;
      s.recentConnections++;
      s.rate = rateNow(s, now) + 1;
      s.rateAt = now;
      acceptedFrom[nextSlot] = s;
      acceptedAt[nextSlot] = now;
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
type Admitted = { counted: boolean; arrival: Arrival };
type MarkedIncoming = IncomingMessage & { [ADMITTED]?: Admitted };

/**
 * An app's fetch wrapped by `shedOverload`. `refuseEarly` is the same decision taken on Node's own
 * request and response objects, before @hono/node-server builds anything for the request: the
 * server (serve.ts) calls it first, so that a refusal in a storm costs only Node's parsing and a
 * written answer. It returns true when it answered (503); an admitted request then goes on to
 * `fetch`, which does not count it a second time.
 */
export type ShedFetch<A extends unknown[]> = ((req: Request, ...rest: A) => Response | Promise<Response>) & {
  /**
   * True when the request was taken care of here: refused (503), or parked, in which case
   * `proceed` is called once it is admitted (and never if it is refused later).
   */
  refuseEarly: (incoming: IncomingMessage, outgoing: ServerResponse, proceed?: () => void) => boolean;
  /** The server calls it for every connection it accepts, with its remote address (the connection-storm signal). */
  connected: (peer?: string) => void;
};

/**
 * Where a Node request comes from. Behind a trusted proxy the client is the last address of
 * X-Forwarded-For: the one our proxy appended, which the client cannot choose (addresses before
 * it are whatever the client sent).
 */
function arrivalOf(incoming: IncomingMessage, trustProxy: boolean): Arrival {
  const peer = incoming.socket.remoteAddress ?? 'unknown';
  if (trustProxy) {
    const header = incoming.headers['x-forwarded-for'];
    const fwd = Array.isArray(header) ? header.join(',') : header;
    const last = fwd?.slice(fwd.lastIndexOf(',') + 1).trim();
    if (last) return { client: last, peer };
  }
  return { client: peer, peer };
}

/**
 * Wraps an app's fetch: requests under `/api/` pass the load monitor first; refused ones get a
 * 503 built without touching the app (a plain string body and header object, which
 * @hono/node-server writes straight to the socket). Static files are never refused.
 */
export function shedOverload<A extends unknown[]>(
  fetch: (req: Request, ...rest: A) => Response | Promise<Response>,
  opts: {
    monitor: LoadMonitor;
    log: Logger;
    headers: () => Record<string, string>;
    random?: () => number;
    /** TRUST_PROXY: tell clients apart by X-Forwarded-For (see arrivalOf). */
    trustProxy?: boolean;
    /** How long a push may wait in the parking lot (OVERLOAD.PARK_MAX_MS unless a test sets it). */
    parkMaxMs?: number;
  },
): ShedFetch<A> {
  const { monitor, log } = opts;
  const trustProxy = opts.trustProxy ?? false;
  const random = opts.random ?? Math.random;
  const parkMaxMs = opts.parkMaxMs ?? OVERLOAD.PARK_MAX_MS;
  const body = JSON.stringify({ success: false, msg: MSG.serverBusy, code: 'RATE_LIMITED' });
  const bodyLength = String(Buffer.byteLength(body));
  // Refusals are counted and logged at most once per LOG_EVERY_MS: a line per refusal would add
  // to the load it reports.
  let refused = 0;
  const reasons = Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<OverloadReason, number>;
  // Refusals per client in the same period, so that the line names who is being shed; bounded
  // like the monitor's sources (a period with more distinct clients stops adding new ones).
  const bySource = new Map<string, number>();
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    flushTimer = null;
    const top = [...bySource]
      .sort((a, b) => b[1] - a[1])
      .slice(0, OVERLOAD.LOG_TOP_SOURCES)
      .map(([source, n]) => ({ source, refused: n }));
    log.warn({ refused, reasons: { ...reasons }, inFlight: monitor.inFlight(), sources: bySource.size, top }, 'overloaded: refused requests with 503');
    refused = 0;
    for (const r of REASONS) reasons[r] = 0;
    bySource.clear();
  };
  /** Counts out a request refuseEarly admitted, once, whichever of its two ends comes first. */
  const countOut = (state: Admitted) => {
    if (!state.counted) return;
    state.counted = false;
    release(state.arrival);
  };
  const span = OVERLOAD.RETRY_AFTER_MAX_S - OVERLOAD.RETRY_AFTER_MIN_S + 1;
  /** Counts a refusal (logged in batches) and answers its headers, with a drawn Retry-After. */
  const refusal = (reason: OverloadReason, arrival: Arrival | undefined): Record<string, string> => {
    refused++;
    reasons[reason]++;
    const key = arrival ? sourceKey(arrival.client) : 'in-process';
    const n = bySource.get(key);
    if (n !== undefined) bySource.set(key, n + 1);
    else if (bySource.size < OVERLOAD.MAX_SOURCES) bySource.set(key, 1);
    if (!flushTimer) {
      flushTimer = setTimeout(flush, OVERLOAD.LOG_EVERY_MS);
      flushTimer.unref();
    }
    const retryAfter = OVERLOAD.RETRY_AFTER_MIN_S + Math.min(span - 1, Math.floor(random() * span));
    return { ...opts.headers(), 'content-type': 'application/json', 'retry-after': String(retryAfter) };
  };
  // Provider callbacks are not shed (WEBHOOK_PATH): a refused payment delivery only comes back
  // later (the buyer waits for the plan meanwhile), and each is cheap by design (a constant-time signature check and one
  // INSERT; the work follows in the webhook inbox, modules/payments/webhook-inbox.ts), so a storm
  // of them is answered faster than it could be refused. A forged one costs the same 401.
  const isApi = (path: string) => path.startsWith('/api/') && !WEBHOOK_PATH.test(path);

  const shed = ((req: Request, ...rest: A) => {
    const url = req.url;
    if (!isApi(url.slice(url.indexOf('/', url.indexOf('//') + 2)))) return fetch(req, ...rest);
    // Under @hono/node-server the env is { incoming, outgoing }; app.request() has none.
    const incoming = (rest[0] as { incoming?: MarkedIncoming } | undefined)?.incoming;
    // Admitted by refuseEarly already: counted out here as any other, or by its close handler.
    const early = incoming?.[ADMITTED];
    const arrival = early ? early.arrival : incoming ? arrivalOf(incoming, trustProxy) : undefined;
    const reason = early ? null : monitor.admit(incoming !== undefined, arrival);
    if (reason === null) {
      // Out of flight once the app has its response (a stream's body goes on without it).
      const finished = early ? () => countOut(early) : () => release(arrival);
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
    return new Response(body, { status: 503, headers: refusal(reason, arrival) });
  }) as ShedFetch<A>;

  shed.connected = (peer) => monitor.connected(peer);
  /** Marks a request admitted before the app sees it; its response's close counts it out should it never reach the app. */
  const markAdmitted = (incoming: MarkedIncoming, outgoing: ServerResponse, arrival: Arrival) => {
    const state: Admitted = { counted: true, arrival };
    incoming[ADMITTED] = state;
    outgoing.once('close', () => countOut(state));
  };
  /** Answers 503 before the app; Node drains the unread body once it is written (keep-alive stays usable). */
  const refuseNow = (reason: OverloadReason, arrival: Arrival, outgoing: ServerResponse) => {
    outgoing.writeHead(503, { ...refusal(reason, arrival), 'content-length': bodyLength });
    outgoing.end(body);
  };

  // The parking lot (OVERLOAD.PARK_MAX): pushes a signal would refuse, oldest first, admitted as
  // requests in flight finish (`drain`, after the turn in which they finished) or refused once
  // they have waited PARK_MAX_MS.
  type Parked = { incoming: MarkedIncoming; outgoing: ServerResponse; arrival: Arrival; until: number; proceed: () => void; gone: boolean };
  const lot: Parked[] = [];
  let lotHead = 0;
  let drainQueued = false;
  let expiryTimer: ReturnType<typeof setTimeout> | null = null;
  const parkedCount = () => lot.length - lotHead;
  const drain = () => {
    drainQueued = false;
    const now = performance.now();
    while (lotHead < lot.length) {
      const p = lot[lotHead]!;
      if (!p.gone) {
        // Only the requests in flight decide now: the turn and connection signals were about
        // how it arrived, and it has waited since.
        const reason = monitor.admit(false, p.arrival);
        if (reason === null) {
          p.gone = true;
          markAdmitted(p.incoming, p.outgoing, p.arrival);
          p.proceed();
        } else if (now >= p.until) {
          p.gone = true;
          refuseNow(reason, p.arrival, p.outgoing);
        } else {
          break;
        }
      }
      lotHead++;
    }
    if (lotHead === lot.length) {
      lot.length = 0;
      lotHead = 0;
    } else if (lotHead > 1024) {
      lot.splice(0, lotHead);
      lotHead = 0;
    }
    armExpiry();
  };
  const queueDrain = () => {
    if (drainQueued || parkedCount() === 0) return;
    drainQueued = true;
    setImmediate(drain);
  };
  /** A timer for the oldest parked request's deadline, in case nothing in flight finishes before it. */
  function armExpiry() {
    if (expiryTimer) clearTimeout(expiryTimer);
    expiryTimer = null;
    const head = lot[lotHead];
    if (!head) return;
    expiryTimer = setTimeout(drain, Math.max(0, head.until - performance.now()));
    expiryTimer.unref();
  }
  const park = (incoming: MarkedIncoming, outgoing: ServerResponse, arrival: Arrival, proceed: () => void) => {
    const p: Parked = { incoming, outgoing, arrival, until: performance.now() + parkMaxMs, proceed, gone: false };
    // A device that gave up (closed its connection) leaves its place.
    outgoing.once('close', () => {
      p.gone = true;
    });
    lot.push(p);
    if (parkedCount() === 1) armExpiry();
    // Room may be there already (a storm of connections refuses while nothing is in flight):
    // after this turn, the requests in flight decide.
    queueDrain();
  };
  /** A request is out of flight: a parked one may take its place. */
  function release(arrival: Arrival | undefined) {
    monitor.finished(arrival);
    queueDrain();
  }

  shed.connected = (peer) => monitor.connected(peer);
  shed.refuseEarly = (incoming: MarkedIncoming, outgoing, proceed) => {
    if (!isApi(incoming.url ?? '')) return false;
    const arrival = arrivalOf(incoming, trustProxy);
    const reason = monitor.admit(true, arrival);
    if (reason === null) {
      markAdmitted(incoming, outgoing, arrival);
      return false;
    }
    if (proceed && parkable(incoming.method, incoming.url ?? '') && parkedCount() < OVERLOAD.PARK_MAX) {
      park(incoming, outgoing, arrival, proceed);
      return true;
    }
    refuseNow(reason, arrival, outgoing);
    return true;
  };
  return shed;
}
