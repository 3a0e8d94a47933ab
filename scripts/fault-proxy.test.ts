import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mulberry32 } from '@pm/protocol/seeded-random';
import { drawFate, type FaultRates, NO_FAULTS, startFaultProxy } from './fault-proxy';

/*
 * The fault proxy of the partitions spec and bench:sync, against a real HTTP server: each fate
 * does to a connection what it says, and a seed draws the same fates again.
 */

let server: http.Server;
let port: number;
/** Requests the server received, by path. */
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"type":"RESYNC"}\n\n');
      const beat = setInterval(() => res.write(': keep-alive\n\n'), 50);
      res.on('close', () => clearInterval(beat));
      return;
    }
    res.end(`hello ${req.url}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

type Outcome = { ok: true; status: number; body: string } | { ok: false; error: string };
/** One request on a connection of its own; `timeoutMs` ends a request that hears nothing. */
function get(url: string, timeoutMs = 1500): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ ok: true, status: res.statusCode ?? 0, body }));
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, error: e.code ?? e.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ ok: false, error: e.code ?? e.message }));
  });
}

async function withProxy(rates: Partial<FaultRates>, run: (url: string) => Promise<void>, seed = 1) {
  const proxy = await startFaultProxy({ target: { port }, seed, rates });
  try {
    await run(proxy.url);
  } finally {
    await proxy.close();
  }
}

test('with no faults the proxy forwards requests and answers unchanged', async () => {
  await withProxy(NO_FAULTS, async (url) => {
    const r = await get(`${url}/plain`);
    expect(r).toEqual({ ok: true, status: 200, body: 'hello /plain' });
  });
});

test('a dropped connection is black-holed: the server never sees the request and the client hears nothing', async () => {
  await withProxy({ drop: 1 }, async (url) => {
    const r = await get(`${url}/dropped`, 400);
    expect(r).toEqual({ ok: false, error: 'TIMEOUT' });
    expect(seen).not.toContain('/dropped');
  });
});

test('a half-open connection delivers the request and swallows the answer', async () => {
  await withProxy({ halfOpen: 1 }, async (url) => {
    const r = await get(`${url}/half-open`, 400);
    expect(r).toEqual({ ok: false, error: 'TIMEOUT' });
    expect(seen).toContain('/half-open');
  });
});

test('a reset connection is reset, before the server sees the request or once its answer starts', async () => {
  await withProxy({ reset: 1 }, async (url) => {
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => get(`${url}/reset-${i}`)));
    for (const o of outcomes) expect(o).toEqual({ ok: false, error: 'ECONNRESET' });
    // Both kinds happen: some requests reached the server, some did not.
    const reached = outcomes.filter((_, i) => seen.includes(`/reset-${i}`)).length;
    expect(reached).toBeGreaterThan(0);
    expect(reached).toBeLessThan(12);
  }, 7);
});

test('answers lost after the server answered are counted', async () => {
  const proxy = await startFaultProxy({ target: { port }, seed: 11, rates: { halfOpen: 1 } });
  try {
    await Promise.all([get(`${proxy.url}/lost-1`, 300), get(`${proxy.url}/lost-2`, 300)]);
    expect(proxy.lostAnswers()).toBe(2);
  } finally {
    await proxy.close();
  }
});

test('delays hold a connection back by up to delayMaxMs', async () => {
  await withProxy({ delayMaxMs: 300 }, async (url) => {
    const times = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const t = performance.now();
        expect(await get(`${url}/slow-${i}`)).toMatchObject({ ok: true, status: 200 });
        return performance.now() - t;
      }),
    );
    expect(Math.max(...times)).toBeGreaterThan(60);
    expect(Math.max(...times)).toBeLessThan(1200);
  }, 3);
});

test('a long-lived stream passes through and is cut after its lifetime', async () => {
  await withProxy({ lifeMaxMs: 400 }, async (url) => {
    const t = performance.now();
    const r = await get(`${url}/stream`, 3000);
    expect(r.ok ? 'ended' : r.error).toBe('ECONNRESET');
    expect(performance.now() - t).toBeLessThan(1000);
  }, 5);
});

test('the same seed draws the same fates; the rates are the shares drawn', () => {
  const rates: FaultRates = { drop: 0.05, reset: 0.1, halfOpen: 0.05, delayMaxMs: 2000, lifeMaxMs: 0 };
  const a = mulberry32(42);
  const b = mulberry32(42);
  const first = Array.from({ length: 50 }, () => drawFate(a, rates));
  expect(Array.from({ length: 50 }, () => drawFate(b, rates))).toEqual(first);
  expect(Array.from({ length: 50 }, () => drawFate(mulberry32(43), rates))).not.toEqual(first);

  const many = Array.from({ length: 20_000 }, () => drawFate(a, rates));
  const share = (f: string) => many.filter((x) => x.fate === f).length / many.length;
  expect(share('reset')).toBeCloseTo(0.1, 1);
  expect(share('drop')).toBeCloseTo(0.05, 1);
  expect(share('half-open')).toBeCloseTo(0.05, 1);
  expect(Math.max(...many.map((x) => x.delayMs))).toBeLessThanOrEqual(2000);
});

test('cutAll cuts the connections that are open, and new rates apply to new connections', async () => {
  const proxy = await startFaultProxy({ target: { port }, seed: 9 });
  try {
    const stream = get(`${proxy.url}/stream`, 3000);
    await new Promise((r) => setTimeout(r, 150));
    proxy.setRates({ drop: 1 });
    proxy.cutAll();
    expect(await stream).toEqual({ ok: false, error: 'ECONNRESET' });
    expect(await get(`${proxy.url}/after`, 300)).toEqual({ ok: false, error: 'TIMEOUT' });
    expect(proxy.counts).toMatchObject({ pass: 1, drop: 1 });
  } finally {
    await proxy.close();
  }
});
