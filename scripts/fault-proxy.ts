/**
 * A TCP proxy that breaks connections at random (docs/offline-integrity.md "The network", "random partitions"), for the
 * Playwright partitions spec and `npm run bench:sync`: it sits between a client and the real
 * server and gives every accepted connection a fate drawn from a seeded PRNG, so that a failing
 * run can be replayed with the same seed (FAULT_SEED):
 *
 *   pass       forwarded both ways after a delay of 0..delayMaxMs, and cut (both sockets
 *              destroyed) after a lifetime of up to lifeMaxMs, so a browser's keep-alive
 *              connections and long-lived streams (the sync stream, SSE) meet faults too;
 *   drop       accepted and black-holed: the request is read and never forwarded, nothing comes
 *              back, the connection stays open until the client gives up;
 *   reset      reset (TCP RST) either as soon as the request's first bytes arrive (the server
 *              never sees it) or when the server's answer starts (the server did the work, the
 *              client never hears of it);
 *   half-open  the request is forwarded and the server's answer swallowed; the client's side
 *              stays open and silent (a response lost on the way back).
 *
 * It works on bytes, not on HTTP: it neither parses nor changes what passes. A replay with the
 * same seed draws the same fates for the 1st, 2nd, ... connection; which request rides on which
 * connection depends on the client's timing, so a replay is close to, not exactly, the run.
 */
import net from 'node:net';
import { mulberry32 } from '@pm/protocol/seeded-random';

export type Fate = 'pass' | 'drop' | 'reset' | 'half-open';

export type FaultRates = {
  /** Share of connections black-holed (0..1). */
  drop: number;
  /** Share of connections reset (0..1). */
  reset: number;
  /** Share of connections whose answers are swallowed (0..1). */
  halfOpen: number;
  /** Each connection's bytes start to flow after a delay drawn from 0..delayMaxMs. */
  delayMaxMs: number;
  /** A passing connection is cut after a lifetime drawn from 0..lifeMaxMs (0: never). */
  lifeMaxMs: number;
};

/** No faults: a transparent proxy. */
export const NO_FAULTS: FaultRates = { drop: 0, reset: 0, halfOpen: 0, delayMaxMs: 0, lifeMaxMs: 0 };

export type FaultProxyOptions = {
  /** The real server. */
  target: { host?: string; port: number };
  /** Where to listen (default 127.0.0.1, port 0: one the system picks). */
  host?: string;
  port?: number;
  seed: number;
  rates?: Partial<FaultRates>;
};

export type FaultProxy = {
  port: number;
  /** http://host:port */
  url: string;
  readonly seed: number;
  /** Connections accepted so far, by fate. */
  counts: Record<Fate, number>;
  /**
   * Connections on which the server answered and the client never heard it (reset once the
   * answer started, or half-open): the server did the work, and the client will send again.
   */
  lostAnswers(): number;
  rates(): FaultRates;
  /** New rates for connections accepted from now on. */
  setRates(rates: Partial<FaultRates>): void;
  /** Starts the PRNG again from `seed` (the next connection draws its first fate) and the counts from 0. */
  reseed(seed: number): void;
  /** Cuts every open connection (so that a client's pooled connections meet the new rates). */
  cutAll(): void;
  close(): Promise<void>;
};

/** The fate of one connection, and its timings, from three draws of the PRNG. */
export function drawFate(random: () => number, rates: FaultRates): { fate: Fate; delayMs: number; lifeMs: number; resetOnAnswer: boolean } {
  const r = random();
  const delayMs = Math.round(random() * rates.delayMaxMs);
  const extra = random();
  let fate: Fate = 'pass';
  if (r < rates.drop) fate = 'drop';
  else if (r < rates.drop + rates.reset) fate = 'reset';
  else if (r < rates.drop + rates.reset + rates.halfOpen) fate = 'half-open';
  return { fate, delayMs, lifeMs: rates.lifeMaxMs > 0 ? Math.round(extra * rates.lifeMaxMs) : 0, resetOnAnswer: extra < 0.5 };
}

/** A seed from FAULT_SEED, or a fresh one; printed by the caller so that the run can be replayed. */
export function seedFromEnv(fallback?: number): number {
  const fromEnv = process.env.FAULT_SEED;
  if (fromEnv !== undefined && fromEnv !== '') return Number(fromEnv) >>> 0;
  return fallback ?? Math.floor(Math.random() * 2 ** 31);
}

function kill(socket: net.Socket, rst: boolean) {
  if (socket.destroyed) return;
  // resetAndDestroy sends a TCP RST (Node ≥ 16.17); a socket not yet connected is only destroyed.
  if (rst && socket.readyState === 'open') socket.resetAndDestroy();
  else socket.destroy();
}

export async function startFaultProxy(opts: FaultProxyOptions): Promise<FaultProxy> {
  let seed = opts.seed;
  let random = mulberry32(seed);
  let rates: FaultRates = { ...NO_FAULTS, ...opts.rates };
  const counts: Record<Fate, number> = { pass: 0, drop: 0, reset: 0, 'half-open': 0 };
  const open = new Set<net.Socket>();
  let lostAnswers = 0;
  const targetHost = opts.target.host ?? '127.0.0.1';

  const server = net.createServer((client) => {
    const { fate, delayMs, lifeMs, resetOnAnswer } = drawFate(random, rates);
    counts[fate]++;
    open.add(client);
    const timers: NodeJS.Timeout[] = [];
    let upstream: net.Socket | null = null;
    const end = (rst = false) => {
      for (const t of timers) clearTimeout(t);
      kill(client, rst);
      if (upstream) kill(upstream, rst);
    };
    client.on('close', () => {
      open.delete(client);
      end();
    });
    client.on('error', () => end());
    client.setNoDelay(true);

    if (fate === 'drop') {
      client.resume(); // read and forget
      return;
    }
    if (fate === 'reset' && !resetOnAnswer) {
      client.once('data', () => timers.push(setTimeout(() => end(true), delayMs)));
      client.resume();
      return;
    }

    // Hold the client's bytes until the delay has passed, then connect and forward.
    client.pause();
    timers.push(
      setTimeout(() => {
        if (client.destroyed) return;
        const up = net.connect({ host: targetHost, port: opts.target.port });
        upstream = up;
        up.setNoDelay(true);
        up.on('error', () => end(true));
        up.on('close', () => {
          // The server closed: a passing connection closes too; a half-open one stays silent.
          if (fate !== 'half-open') end();
        });
        up.on('connect', () => {
          client.pipe(up);
          client.resume();
        });
        if (fate === 'half-open') {
          up.once('data', () => lostAnswers++);
          up.resume(); // the answer is read and swallowed
        } else if (fate === 'reset') {
          up.once('data', () => {
            lostAnswers++;
            end(true);
          });
        } else {
          up.pipe(client);
          if (lifeMs > 0) timers.push(setTimeout(() => end(true), lifeMs));
        }
      }, delayMs),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as net.AddressInfo;
  return {
    port: address.port,
    url: `http://${opts.host ?? '127.0.0.1'}:${address.port}`,
    get seed() {
      return seed;
    },
    counts,
    lostAnswers: () => lostAnswers,
    rates: () => ({ ...rates }),
    setRates(next) {
      rates = { ...rates, ...next };
    },
    reseed(next) {
      seed = next;
      random = mulberry32(next);
      for (const f of Object.keys(counts) as Fate[]) counts[f] = 0;
      lostAnswers = 0;
    },
    cutAll() {
      for (const s of open) kill(s, true);
    },
    async close() {
      for (const s of open) kill(s, false);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
