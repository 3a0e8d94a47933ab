import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { readText, RequestStalledError, stallGuard } from '../../client/src/db/sync/stall-guard';
import { type FaultProxy, NO_FAULTS, startFaultProxy } from '../../scripts/fault-proxy';
import { DEMO } from '../../server/src/test/harness';
import { attemptRows, type Device, eventually, newAttempt, openDevice, resultRows, startServer, type TestServer } from './harness';

/*
 * Connections that go silent (docs/offline-integrity.md "The network"), through the fault proxy of the partitions spec
 * (scripts/fault-proxy.ts) in front of the real server: a half-open connection delivers a push
 * and swallows its answer; a black-holed one swallows the stream. fetch never gives up on
 * either; before the replication's stall guard (client/src/db/sync/stall-guard.ts) the submission's
 * push waited for good, and the device heard of no change again.
 */

const P = DEMO.learner.id;
let server: TestServer;
let token: string;
let proxy: FaultProxy;
const open: Device[] = [];

beforeAll(async () => {
  server = await startServer();
  token = await server.harness.tokenOf('learner');
}, 30_000);
afterAll(() => server.destroy(), 30_000);
afterEach(async () => {
  while (open.length) await open.pop()!.close();
  await proxy?.close();
}, 30_000);

async function deviceThroughProxy(): Promise<Device> {
  const d = await openDevice(P, { url: proxy.url }, { token: () => token, requestStallMs: 1000, streamStallMs: 1500 });
  open.push(d);
  return d;
}

test('a submission whose answer is lost (half-open) is given up, sent again on a new connection, stored and scored once', async () => {
  proxy = await startFaultProxy({ target: { port: server.port }, seed: 21, rates: NO_FAULTS });
  const device = await deviceThroughProxy();
  await device.replication.awaitInSync();

  // Every connection from now on delivers its request and swallows the answer.
  proxy.setRates({ halfOpen: 1 });
  proxy.cutAll();
  await device.db.test_summary.insert(
    newAttempt('partition-half-open', { status: 'SUBMITTED', submittedAt: Date.now(), answers: { 'q-gk-001': { ua: 'b', status: 'ANSWERED' } } }),
  );
  // The server has it; the device has not heard so.
  await eventually(async () => (await attemptRows(server, P)).some((r) => r.id === 'partition-half-open'), 10_000, 'the push reached the server');
  await eventually(() => proxy.lostAnswers() > 0, 5_000, 'the server answered into the void');
  expect(device.status().pending).toBe(1);

  // The network heals: the stalled push is given up, sent again, and the server's "already
  // stored" settles it.
  proxy.setRates(NO_FAULTS);
  await eventually(() => device.status().pending === 0, 15_000, 'the device knows its submission is stored');
  expect((await attemptRows(server, P)).filter((r) => r.id === 'partition-half-open')).toHaveLength(1);
  await eventually(async () => (await device.db.exam_result.find({ selector: { attemptId: 'partition-half-open' } }).exec()).length === 1, 15_000, 'the result came back');
  expect((await resultRows(server, P)).filter((r) => r.attemptId === 'partition-half-open')).toHaveLength(1);
});

test('a black-holed stream is noticed and opened again: the device hears of changes made elsewhere', async () => {
  proxy = await startFaultProxy({ target: { port: server.port }, seed: 22, rates: NO_FAULTS });
  const device = await deviceThroughProxy();
  await device.replication.awaitInSync();

  // The stream and every other connection fall into a black hole; then the network heals, and
  // nothing else on this device asks the server anything.
  proxy.setRates({ drop: 1 });
  proxy.cutAll();
  await new Promise((r) => setTimeout(r, 500));
  proxy.setRates(NO_FAULTS);

  // Another device (straight to the server) starts an attempt; only the stream can tell this one.
  const other = await openDevice(P, server, { token: () => token });
  open.push(other);
  await other.db.test_summary.insert(newAttempt('partition-elsewhere'));
  await eventually(async () => (await device.db.test_summary.findOne('partition-elsewhere').exec()) !== null, 15_000, 'the change reached the device');
});

test('the stall guard gives up an answer that stops, not one that is slow but keeps coming', async () => {
  // 10 chunks 80 ms apart (800 ms in all), or one chunk and then silence.
  const trickle = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    let n = 0;
    const beat = setInterval(() => {
      res.write(`${n++}`);
      if (req.url === '/stops') clearInterval(beat);
      else if (n === 10) {
        clearInterval(beat);
        res.end();
      }
    }, 80);
    res.on('close', () => clearInterval(beat));
  });
  await new Promise<void>((r) => trickle.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(trickle.address() as AddressInfo).port}`;
  try {
    const slow = stallGuard(300);
    const res = await fetch(`${url}/slow`, { signal: slow.signal });
    expect(await readText(res, slow)).toBe('0123456789');
    slow.done();

    const stops = stallGuard(300);
    const t = performance.now();
    const res2 = await fetch(`${url}/stops`, { signal: stops.signal });
    await expect(readText(res2, stops)).rejects.toBeInstanceOf(RequestStalledError);
    expect(performance.now() - t).toBeLessThan(1500);
  } finally {
    trickle.closeAllConnections();
    await new Promise<void>((r) => trickle.close(() => r()));
  }
});
