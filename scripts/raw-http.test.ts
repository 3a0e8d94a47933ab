import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest, parseResponse, RawConnection } from './raw-http';

describe('parseResponse', () => {
  it('reads a Content-Length body and says how many bytes it used', () => {
    const raw = Buffer.from('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 2\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1');
    const r = parseResponse(raw)!;
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('2');
    expect(r.body.toString()).toBe('hello');
    expect(raw.subarray(r.used).toString()).toBe('HTTP/1.1');
  });

  it('waits for the rest of a body or of the headers', () => {
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel'))).toBeNull();
    expect(parseResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Len'))).toBeNull();
  });

  it('joins a chunked body', () => {
    const whole = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\na\r\n0123456789\r\n0\r\n\r\n';
    const r = parseResponse(Buffer.from(whole))!;
    expect(r.body.toString()).toBe('abc0123456789');
    expect(r.used).toBe(Buffer.byteLength(whole));
    expect(parseResponse(Buffer.from(whole.slice(0, -3)))).toBeNull();
  });

  it('refuses what is not HTTP', () => {
    expect(() => parseResponse(Buffer.from('SSH-2.0\r\n\r\n'))).toThrow(/not an HTTP response/);
  });
});

describe('RawConnection against node:http', () => {
  let server: http.Server;
  let port = 0;
  const seen: { method: string; url: string; body: string; auth: string | undefined; socket: unknown }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (req.url === '/never') return; // never answered
        seen.push({ method: req.method!, url: req.url!, body, auth: req.headers.authorization, socket: req.socket });
        if (req.url === '/chunked') {
          res.write('par');
          res.end('ts');
        } else res.end(JSON.stringify({ echo: body }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends requests one after another on one socket and reads both kinds of body', async () => {
    const conn = new RawConnection(port);
    const a = await conn.send(buildRequest('POST', `127.0.0.1:${port}`, '/x', { authorization: 'Bearer t' }, 'नमस्ते'));
    expect(a.status).toBe(200);
    expect(JSON.parse(a.text)).toEqual({ echo: 'नमस्ते' });
    expect(a.written).toBeGreaterThan(0);
    const b = await conn.send(buildRequest('GET', `127.0.0.1:${port}`, '/chunked', {}));
    expect(b.text).toBe('parts');
    conn.destroy();
    expect(seen.map((s) => [s.method, s.url, s.auth])).toEqual([
      ['POST', '/x', 'Bearer t'],
      ['GET', '/chunked', undefined],
    ]);
    expect(seen[0]!.socket).toBe(seen[1]!.socket);
  });

  it('rejects on a timeout, and the same connection connects again for the next request', async () => {
    const conn = new RawConnection(port);
    const before = seen.length;
    await expect(conn.send(buildRequest('GET', `127.0.0.1:${port}`, '/never', {}), 50)).rejects.toThrow('timeout');
    const r = await conn.send(buildRequest('GET', `127.0.0.1:${port}`, '/chunked', {}));
    expect(r.text).toBe('parts');
    conn.destroy();
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/chunked']);
  });
});
