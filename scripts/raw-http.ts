/**
 * A lean HTTP/1.1 client for load generators (bench:sync's storm): one TCP socket per simulated
 * device, the request's bytes built once, and just enough response parsing (status line, headers,
 * Content-Length or chunked body). One Node process playing 1,000 devices through node:http spends
 * so long in its own client code (agent, header objects, parser callbacks) that it reaches the
 * last devices hundreds of ms late and then measures its own delay as the server's; this keeps
 * the generator's share of the CPU small, as wrk does.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';

export type RawResponse = { status: number; headers: Record<string, string>; text: string; written: number };

/** The bytes of one request (keep-alive, so a device can send again on the same socket). */
export function buildRequest(method: string, host: string, path: string, headers: Record<string, string>, body = ''): Buffer {
  const b = Buffer.from(body, 'utf8');
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
  for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
  head += `content-length: ${b.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), b]);
}

type Parsed = { status: number; headers: Record<string, string>; body: Buffer; used: number };

/** Parses one whole response from the front of `buf`, or null when more bytes are needed. */
export function parseResponse(buf: Buffer): Parsed | null {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = buf.toString('latin1', 0, end).split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!m) throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let at = end + 4;
  if (headers['content-length'] !== undefined) {
    const n = Number(headers['content-length']);
    if (buf.length < at + n) return null;
    return { status: Number(m[1]), headers, body: buf.subarray(at, at + n), used: at + n };
  }
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
      if (Number.isNaN(size)) throw new Error('bad chunk size');
      const dataAt = lineEnd + 2;
      if (size === 0) {
        // Last chunk, no trailers expected: "0\r\n\r\n".
        if (buf.length < dataAt + 2) return null;
        return { status: Number(m[1]), headers, body: Buffer.concat(parts), used: dataAt + 2 };
      }
      if (buf.length < dataAt + size + 2) return null;
      parts.push(buf.subarray(dataAt, dataAt + size));
      at = dataAt + size + 2;
    }
  }
  // No length: a response without a body (204/304) here.
  return { status: Number(m[1]), headers, body: Buffer.alloc(0), used: at };
}

/**
 * One device's connection: `send` writes a request and resolves with the whole response. It
 * connects on first use and again after the server closed the socket. `written` is the moment the
 * request's bytes had been handed to the kernel (right after the synchronous write), so the
 * latency measured from it is the server's plus the loopback's, not the generator's delay in
 * getting to this device.
 */
export class RawConnection {
  private socket: net.Socket | null = null;
  private connected: Promise<void> | null = null;
  private pending: { resolve: (r: RawResponse) => void; reject: (e: Error) => void; written: number; timer: NodeJS.Timeout } | null = null;
  private buf: Buffer = Buffer.alloc(0);

  /** `localAddress`: the address to connect from (another 127.x address plays another network's device). */
  constructor(
    private readonly port: number,
    private readonly host = '127.0.0.1',
    private readonly localAddress?: string,
  ) {}

  private connect(): Promise<void> {
    if (this.connected) return this.connected;
    this.connected = new Promise<void>((resolve, reject) => {
      const s = net.connect({ port: this.port, host: this.host, noDelay: true, ...(this.localAddress && { localAddress: this.localAddress }) });
      this.socket = s;
      s.once('connect', () => resolve());
      // Events of a socket this connection already gave up on (timeout) are not about the
      // request that may be waiting on its successor.
      s.on('data', (d: Buffer) => this.socket === s && this.onData(d));
      s.on('error', (e) => {
        reject(e);
        if (this.socket === s) this.fail(e);
      });
      s.on('close', () => {
        if (this.socket !== s) return;
        this.socket = null;
        this.connected = null;
        this.buf = Buffer.alloc(0);
        this.fail(new Error('connection closed'));
      });
    });
    return this.connected;
  }

  private fail(e: Error) {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    clearTimeout(p.timer);
    p.reject(e);
  }

  private onData(d: Buffer) {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    const p = this.pending;
    if (!p) return;
    let r: Parsed | null;
    try {
      r = parseResponse(this.buf);
    } catch (e) {
      this.destroy();
      this.fail(e as Error);
      return;
    }
    if (!r) return;
    this.buf = this.buf.subarray(r.used);
    this.pending = null;
    clearTimeout(p.timer);
    if (r.headers.connection?.toLowerCase() === 'close') this.destroy();
    p.resolve({ status: r.status, headers: r.headers, text: r.body.toString('utf8'), written: p.written });
  }

  async send(request: Buffer, timeoutMs = 30_000): Promise<RawResponse> {
    if (this.pending) throw new Error('one request at a time per connection');
    await this.connect();
    const s = this.socket!;
    return new Promise<RawResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.destroy();
        this.fail(new Error('timeout'));
      }, timeoutMs);
      this.pending = { resolve, reject, written: NaN, timer };
      s.write(request);
      this.pending.written = performance.now();
    });
  }

  destroy() {
    const s = this.socket;
    this.socket = null;
    this.connected = null;
    this.buf = Buffer.alloc(0);
    s?.destroy();
  }
}
