/**
 * Lean devices for the live-test key at scale (docs/live-tests.md "The key at scale"): each holds
 * the sync stream open on a raw socket (GET /api/sync/v1/stream, as client/src/db/sync/sync-stream.ts
 * reads it), takes a live test's key from the stream's KEY event, and, as the replication does,
 * pulls its `live_key` documents from its checkpoint on RESYNC and on each CHANGE that names `live_key`. A thousand RxDB databases in one process are
 * too heavy for a test or a bench (each is IndexedDB, schemas, a replication per collection), so
 * these speak the protocol without a replica; tests/replication/live-key-stream.test.ts runs a few
 * real replicas beside them. Used by that test and by `npm run bench:live` (scripts/bench-live.ts).
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildRequest, RawConnection, type RawResponse } from './raw-http';

export const LIVE_HEADERS = { 'x-sync-protocol': '1.0.0' };

/** Wall-clock time with sub-millisecond precision (comparable with another process's Date.now()). */
export const wallNow = () => performance.timeOrigin + performance.now();

/** One `live_key` document as pulled (the fields the devices look at). */
export type PulledKey = { id: string; key: string | null; start: number; updatedAt: number };

/** Where a device talks to: the app's paths, or the bare floor's (scripts/bench-live-servers.ts). */
export type LivePaths = { stream: string; pull: (rev: number) => string };
export const APP_PATHS: LivePaths = {
  stream: '/api/sync/v1/stream',
  pull: (rev) => `/api/sync/v1/live_key/pull?rev=${rev}&limit=200`,
};

/**
 * Decodes an HTTP/1.1 chunked body as it arrives and hands on the server-sent events in it
 * (`data:` lines; comments such as the keep-alive are skipped).
 */
class SseReader {
  private raw: Buffer = Buffer.alloc(0);
  private text = '';
  constructor(private readonly onData: (data: string) => void) {}

  feed(bytes: Buffer): void {
    this.raw = this.raw.length ? Buffer.concat([this.raw, bytes]) : bytes;
    for (;;) {
      const lineEnd = this.raw.indexOf('\r\n');
      if (lineEnd < 0) return;
      const size = parseInt(this.raw.toString('latin1', 0, lineEnd), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size in the stream');
      if (this.raw.length < lineEnd + 2 + size + 2) return;
      this.text += this.raw.toString('utf8', lineEnd + 2, lineEnd + 2 + size);
      this.raw = this.raw.subarray(lineEnd + 2 + size + 2);
      this.events();
    }
  }

  private events(): void {
    for (let end = this.text.indexOf('\n\n'); end >= 0; end = this.text.indexOf('\n\n')) {
      const block = this.text.slice(0, end);
      this.text = this.text.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data) this.onData(data);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** As the client answers 503/429: at least Retry-After, plus up to a second of jitter. */
const retryDelay = (headers: Record<string, string>) => (Number(headers['retry-after'] ?? 1) + Math.random()) * 1000;

export type DeviceStats = {
  /** Stream requests answered 503/429 (sent again after Retry-After). */
  streamRefused: number;
  /** Pulls answered 503/429, and pulls that failed on the connection (both sent again). */
  pullRefused: number;
  pullFailed: number;
};

/**
 * One device: its stream and a keep-alive connection for its pulls (which the server closes when
 * idle, as it does a phone's; the next pull connects again, as a browser does).
 */
export class LiveDevice {
  checkpoint = 0;
  /** The key of each live test, once the stream's KEY event or a pull brought it. */
  readonly keys = new Map<string, string>();
  /** When (wallNow) the key first arrived (the KEY event, or the end of the pull that brought it), by test. */
  readonly keyAt = new Map<string, number>();
  /** The server's clock when each key first arrived: the pulled document's `updatedAt`, Date.now() (same machine) at a KEY event's arrival. */
  readonly keyServerTime = new Map<string, number>();
  /** The key of each live test as the stream's KEY event carried it. */
  readonly streamed = new Map<string, string>();
  /** The key of each live test in its pulled `live_key` document, and when that pull ended. */
  readonly pulled = new Map<string, string>();
  readonly pulledAt = new Map<string, number>();
  /** When each CHANGE naming live_key arrived (wallNow). */
  readonly changes: number[] = [];
  readonly stats: DeviceStats = { streamRefused: 0, pullRefused: 0, pullFailed: 0 };
  private socket: net.Socket | null = null;
  private readonly pullConn: RawConnection;
  private pulling: Promise<void> | null = null;
  private again = false;
  private closed = false;

  /**
   * `source`: the loopback address the device connects from (127.0.0.1 by default). The load
   * shedder counts connections per address (lib/overload.ts): thousands of devices from one
   * address are one client's storm, from many they are many devices.
   */
  constructor(
    private readonly port: number,
    private readonly token: string,
    private readonly paths: LivePaths = APP_PATHS,
    private readonly source?: string,
  ) {
    this.pullConn = new RawConnection(port, '127.0.0.1', source);
  }

  /** Opens the stream (sent again after a refusal) and resolves once its RESYNC has been pulled. */
  async connect(timeoutMs = 60_000): Promise<void> {
    const until = performance.now() + timeoutMs;
    for (;;) {
      if (performance.now() > until) throw new Error('the stream did not open in time');
      const refused = await this.openStream();
      if (refused === null) break;
      this.stats.streamRefused++;
      await sleep(retryDelay(refused));
    }
    // The RESYNC it started with has pulled (or is pulling) the collection.
    await this.pulling;
  }

  /** One attempt at the stream: null once it is open and streaming, else the refusal's headers. */
  private openStream(): Promise<Record<string, string> | null> {
    return new Promise((resolve, reject) => {
      const s = net.connect({ port: this.port, host: '127.0.0.1', noDelay: true, ...(this.source && { localAddress: this.source }) });
      let head: Buffer = Buffer.alloc(0);
      let reader: SseReader | null = null;
      let settled = false;
      const settle = (v: Record<string, string> | null, err?: Error) => {
        if (settled) return;
        settled = true;
        if (err) reject(err);
        else resolve(v);
      };
      s.on('error', (e) => settle(null, e));
      s.on('close', () => {
        if (this.socket === s) this.socket = null;
        settle(null, new Error('the stream closed before it opened'));
      });
      s.on('data', (d: Buffer) => {
        if (reader) return reader.feed(d);
        head = head.length ? Buffer.concat([head, d]) : d;
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        const lines = head.toString('latin1', 0, end).split('\r\n');
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
        const headers: Record<string, string> = {};
        for (const line of lines.slice(1)) {
          const i = line.indexOf(':');
          if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        if (status === 503 || status === 429) {
          s.destroy();
          return settle(headers);
        }
        if (status !== 200) {
          s.destroy();
          return settle(null, new Error(`the stream answered ${status}`));
        }
        this.socket = s;
        reader = new SseReader((data) => this.onEvent(data, () => settle(null)));
        reader.feed(head.subarray(end + 4));
      });
      s.write(buildRequest('GET', `127.0.0.1:${this.port}`, this.paths.stream, { ...LIVE_HEADERS, accept: 'text/event-stream', authorization: `Bearer ${this.token}` }));
    });
  }

  private onEvent(data: string, opened: () => void): void {
    const e = JSON.parse(data) as { type: string; collections?: string[]; qsid?: string; key?: string };
    if (e.type === 'KEY' && e.qsid && e.key) {
      // The key in the stream itself (docs/live-tests.md "The key at scale"), before the CHANGE's pull.
      this.streamed.set(e.qsid, e.key);
      // Its server time: this machine's wall clock (Date.now, the clock the server's release
      // decided by), never earlier than the moment the server sent it.
      this.gotKey(e.qsid, e.key, wallNow(), Date.now());
    } else if (e.type === 'RESYNC') {
      this.pull();
      opened();
    } else if (e.type === 'CHANGE' && e.collections?.includes('live_key')) {
      this.changes.push(wallNow());
      this.pull();
    }
  }

  /** Pulls from the checkpoint until nothing is left; a pull asked for meanwhile runs after it. */
  private pull(): void {
    if (this.pulling) {
      this.again = true;
      return;
    }
    this.pulling = this.pullLoop().finally(() => {
      this.pulling = null;
      if (this.again && !this.closed) {
        this.again = false;
        this.pull();
      }
    });
  }

  private async pullLoop(): Promise<void> {
    const headers = { ...LIVE_HEADERS, authorization: `Bearer ${this.token}` };
    for (;;) {
      if (this.closed) return;
      let r: RawResponse;
      try {
        r = await this.pullConn.send(buildRequest('GET', `127.0.0.1:${this.port}`, this.paths.pull(this.checkpoint), headers), 30_000);
      } catch {
        this.stats.pullFailed++;
        continue;
      }
      if (r.status === 503 || r.status === 429) {
        this.stats.pullRefused++;
        await sleep(retryDelay(r.headers));
        continue;
      }
      if (r.status !== 200) throw new Error(`live_key pull answered ${r.status}: ${r.text}`);
      const at = wallNow();
      const body = JSON.parse(r.text) as { documents: PulledKey[]; checkpoint: { rev: number } };
      for (const d of body.documents) {
        if (d.key === null || this.pulled.has(d.id)) continue;
        this.pulled.set(d.id, d.key);
        this.pulledAt.set(d.id, at);
        // The document's own time: the server's clock when it built it and decided the key was due
        // (X-Server-Time is stamped when the request arrived, which may be before).
        this.gotKey(d.id, d.key, at, d.updatedAt);
      }
      this.checkpoint = body.checkpoint.rev;
      if (body.documents.length < 200) return;
    }
  }

  private gotKey(qsid: string, key: string, at: number, serverTime: number): void {
    if (this.keys.has(qsid)) return;
    this.keys.set(qsid, key);
    this.keyAt.set(qsid, at);
    this.keyServerTime.set(qsid, serverTime);
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
    this.socket = null;
    this.pullConn.destroy();
  }
}

/** A loopback address of its own for every `perAddress` devices (127.0.1.0 onwards), as devices of many networks. */
export const loopbackSource = (i: number, perAddress: number) => {
  const n = Math.floor(i / perAddress);
  return `127.0.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
};

/**
 * Connects `devices` at `perSecond` at most (a burst of new connections is refused as a storm,
 * lib/overload.ts; devices come online over time anyway).
 */
export async function connectAll(devices: LiveDevice[], opts: { perSecond: number; timeoutMs?: number }): Promise<void> {
  const gap = 1000 / opts.perSecond;
  const t0 = performance.now();
  await Promise.all(
    devices.map(async (d, i) => {
      await sleep(Math.max(0, t0 + i * gap - performance.now()));
      await d.connect(opts.timeoutMs);
    }),
  );
}
