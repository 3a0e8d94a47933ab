import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MSG } from '@pm/protocol/messages';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { createApp } from '../../server/src/app';
import { createLoadMonitor, OVERLOAD } from '../../server/src/lib/overload';
import { serveApp } from '../../server/src/serve';
import { type Harness, startHarness } from '../../server/src/test/harness';

/**
 * docs/security.md "Production, load shedding, logs, files": the load shedder (server/src/lib/overload.ts) is fair per client. Everything
 * goes through the real server over TCP: the attacker and the learner differ only in the address
 * their sockets come from (Linux routes all of 127/8 to the loopback interface, so binding a
 * client socket to 127.0.0.2 makes a second source).
 */

const ATTACKER = '127.0.0.1';
const LEARNER = '127.0.0.2';

type Answer = { status: number; body: string };

function get(
  port: number,
  path: string,
  opts: { localAddress: string; agent: http.Agent | false; token?: string; headers?: Record<string, string> },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path,
      localAddress: opts.localAddress,
      agent: opts.agent,
      headers: { ...opts.headers, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function listen(fetch: Parameters<typeof serveApp>[0]): Promise<{ server: http.Server; port: number }> {
  return new Promise((resolve) => {
    const server = serveApp(fetch, { hostname: '127.0.0.1', port: 0 }, (info) => resolve({ server, port: info.port }));
  });
}

async function close(server: http.Server) {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

/**
 * A push whose body never comes: admitted as its headers arrive, it then holds its in-flight slot
 * while the app waits for the body (a slow upload costs the attacker nothing).
 */
function slowPush(port: number, localAddress: string, token: string, headers: Record<string, string> = {}): net.Socket {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  const lines = [
    'POST /api/sync/v1/test_summary/push HTTP/1.1',
    'Host: 127.0.0.1',
    `Authorization: Bearer ${token}`,
    'Content-Type: application/json',
    `X-Sync-Protocol: ${PROTOCOL_VERSION}`,
    'Content-Length: 100000',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.on('error', () => {});
  socket.write(`${lines.join('\r\n')}\r\n\r\n[`);
  return socket;
}

const until = async (what: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

let h: Harness;
let server: http.Server;
let port: number;
let token: string;
let attackerToken: string;

beforeAll(async () => {
  h = await startHarness();
  token = await h.tokenOf('learner');
  attackerToken = await h.tokenOf('editor');
  ({ server, port } = await listen(h.app.fetch));
});

afterAll(async () => {
  await close(server);
  h.destroy();
});

describe('load shedding is fair per client', () => {
  test('a burst of new connections from one source is refused while a signed-in learner from another source is served', async () => {
    const attacker: Answer[] = [];
    let learnerDone = false;
    // Waves of 150 new connections at once (no keep-alive: each request is a new connection),
    // again and again until the learner has finished, so that every request of the learner
    // meets a storm.
    const attack = async () => {
      do {
        const wave = await Promise.all(
          Array.from({ length: 150 }, () => get(port, '/api/health', { localAddress: ATTACKER, agent: false })),
        );
        attacker.push(...wave);
      } while (!learnerDone);
    };
    const attacking = attack();
    // The learner: 30 requests, half on a kept-alive connection and half each on a new one,
    // started while the first wave is on the wire.
    const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const learner: Answer[] = [];
    try {
      await new Promise((r) => setTimeout(r, 2));
      for (let i = 0; i < 30; i++) {
        learner.push(await get(port, '/api/Person', { localAddress: LEARNER, agent: i % 2 ? keepAlive : false, token }));
      }
    } finally {
      learnerDone = true;
      await attacking;
      keepAlive.destroy();
    }

    expect(learner.map((a) => a.status)).toEqual(learner.map(() => 200));
    expect(attacker.length).toBeGreaterThanOrEqual(150);
    const refused = attacker.filter((a) => a.status === 503);
    // The storm protection still works against the source that is the storm.
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) expect(JSON.parse(a.body)).toEqual({ success: false, msg: MSG.serverBusy, code: 'RATE_LIMITED' });
    // Everything else the attacker sent was answered normally (no dropped connection, no error).
    expect(attacker.filter((a) => a.status !== 503 && a.status !== 200)).toEqual([]);
  });

  for (const behindProxy of [false, true]) {
    test(`a source holding every in-flight slot with requests that never finish does not shut out a signed-in learner (${behindProxy ? 'behind a trusted proxy, by X-Forwarded-For' : 'by socket address'})`, async () => {
      // Behind a proxy every connection comes from the proxy's address: the clients differ only
      // in the address the proxy appended last to X-Forwarded-For. The attacker's own first entry
      // (the learner's address) changes nothing.
      const load = createLoadMonitor();
      const deps = behindProxy ? { ...h.deps, config: { ...h.deps.config, TRUST_PROXY: true } } : h.deps;
      const own = await listen(createApp(deps, { load }).fetch);
      type From = { address: string; headers: Record<string, string> };
      const attackerFrom: From = behindProxy ? { address: '127.0.0.1', headers: { 'X-Forwarded-For': '198.51.100.7, 203.0.113.66' } } : { address: ATTACKER, headers: {} };
      const learnerFrom: From = behindProxy ? { address: '127.0.0.1', headers: { 'X-Forwarded-For': '198.51.100.7' } } : { address: LEARNER, headers: {} };
      const sockets: net.Socket[] = [];
      try {
        // A few connections at a time (a storm of them would be refused at once): until the
        // attacker holds the whole MAX_IN_FLIGHT.
        while (load.inFlight() < OVERLOAD.MAX_IN_FLIGHT) {
          for (let i = 0; i < 4; i++) sockets.push(slowPush(own.port, attackerFrom.address, attackerToken, attackerFrom.headers));
          await new Promise((r) => setTimeout(r, 30));
        }
        await new Promise((r) => setTimeout(r, 50));
        expect(load.inFlight()).toBeGreaterThanOrEqual(OVERLOAD.MAX_IN_FLIGHT);

        // The attacker's next request is refused: it holds more than its share.
        const more = await get(own.port, '/api/health', { localAddress: attackerFrom.address, agent: false, headers: attackerFrom.headers });
        expect(more.status).toBe(503);
        expect(JSON.parse(more.body)).toEqual({ success: false, msg: MSG.serverBusy, code: 'RATE_LIMITED' });

        // The learner is served, on new connections and on a kept-alive one.
        const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
        const learner: number[] = [];
        for (let i = 0; i < 20; i++) {
          const a = await get(own.port, '/api/Person', { localAddress: learnerFrom.address, agent: i % 2 ? keepAlive : false, token, headers: learnerFrom.headers });
          learner.push(a.status);
        }
        keepAlive.destroy();
        expect(learner).toEqual(learner.map(() => 200));
      } finally {
        for (const s of sockets) s.destroy();
        await close(own.server);
      }
      // Every slot the attacker held is given back once its connections are gone.
      await until(() => load.inFlight() === 0);
    });
  }
});
