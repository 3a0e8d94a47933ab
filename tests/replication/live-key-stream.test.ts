import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Principal } from '../../server/src/context';
import { liveTest, person } from '../../server/src/db/schema';
import { first, transaction } from '../../server/src/db/transaction';
import { openSession } from '../../server/src/lib/sessions';
import { register, schedule, startLiveRelease } from '../../server/src/modules/live-tests/live-tests.service';
import { DEMO } from '../../server/src/test/harness';
import { connectAll, LiveDevice } from '../../scripts/live-stream-clients';
import { type Device, eventually, openDevice, startServer, type TestServer } from './harness';

/*
 * A live test's key reaches 1,000 connected devices through the stream at its start, and none
 * before it (docs/live-tests.md "The key schedule", "The key at scale"): 1,000 registered
 * learners, each with a stream open to the real server over HTTP; the release job runs; every
 * device gets the key in the stream's KEY event, then pulls its `live_key` document on the
 * stream's CHANGE and finds the server's key in it too.
 *
 * Three of the devices are real replicas (RxDB, the app's replication). The other 997 speak the
 * same protocol without a replica (scripts/live-stream-clients.ts: the stream on a raw socket, the
 * pull from the checkpoint on RESYNC and on CHANGE): 1,000 RxDB databases in one process would
 * take minutes to open and more memory than this machine has, and RxDB's open-source core allows
 * 13 open collections in one JavaScript context (docs/replication.md "Collections on a device").
 */

const QSID = 'qs-mock-ssc-1';
const DEVICES = 1000;
const REPLICAS = 3;
const MIN = 60_000;

let server: TestServer;
let stopRelease = () => undefined as void;
const lean: LiveDevice[] = [];
const replicas: Device[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  stopRelease();
  for (const d of lean) d.close();
  for (const d of replicas) await d.close().catch(() => undefined);
  await server.destroy();
});

/** `n` learner accounts written straight to the database, each signed in once (a session and its token, as a login makes them). */
async function learners(n: number): Promise<{ id: string; token: string; session: string }[]> {
  const db = server.harness.deps.db;
  const ids = Array.from({ length: n }, (_, i) => `live-stream-${i}`);
  await transaction(db, async (tx) => {
    for (const [i, id] of ids.entries()) await tx.insert(person).values({ id, name: `Stream Learner ${i}`, mobile: `+9171000${String(i).padStart(5, '0')}`, passwordHash: 'x' });
  });
  const secret = server.harness.deps.config.jwtSecret;
  return Promise.all(
    ids.map(async (id) => {
      const { token, session } = await openSession(db, secret, { id, tokenVersion: 0 });
      return { id, token, session: session.id };
    }),
  );
}

test("a live test's key reaches 1,000 connected devices through the stream at the start, and none before it", async () => {
  const deps = server.harness.deps;
  const editor: Principal = { id: DEMO.editor.id, name: 'Editor', permissions: new Set(), sessionId: 'editor-session' };
  // Scheduled an hour ahead while the learners register and connect; moved to the near future below.
  const later = Date.now() + 60 * MIN;
  await schedule(deps, editor, { qsid: QSID, start: later, winMin: 15, res: later + 3 * 60 * MIN });

  const people = await learners(DEVICES);
  for (const p of people) await register(deps, { id: p.id, name: p.id, permissions: new Set(), sessionId: p.session }, { qsid: QSID, sms: false, lang: 'en' });

  // The release job, as a serving instance runs it (compose.ts startJobs).
  stopRelease = startLiveRelease(deps);

  for (const p of people.slice(REPLICAS)) lean.push(new LiveDevice(server.port, p.token));
  await connectAll(lean, { perSecond: 500 });
  for (const p of people.slice(0, REPLICAS)) {
    const device = await openDevice(p.id, server, { token: () => p.token, collections: ['live_key', 'test_summary'] });
    replicas.push(device);
    await device.replication.awaitInSync();
    expect((await device.db.live_key.findOne(QSID).exec())?.key).toBeNull();
  }
  expect(lean.every((d) => d.keys.size === 0)).toBe(true);

  // The editor moves the start to a moment from now (the key stays): every device hears of it and pulls again.
  const start = Date.now() + 2500;
  await schedule(deps, editor, { qsid: QSID, start, winMin: 15, res: start + 3 * 60 * MIN });
  const serverKey = (await first(deps.db.select({ key: liveTest.key }).from(liveTest).where(eq(liveTest.qsid, QSID))))!.key;

  await eventually(() => lean.every((d) => d.keys.has(QSID) && d.pulled.has(QSID)), 25_000, 'the key on every stream client, streamed and pulled');
  await eventually(async () => {
    const docs = await Promise.all(replicas.map((d) => d.db.live_key.findOne(QSID).exec()));
    return docs.every((doc) => doc?.key === serverKey);
  }, 10_000, 'the key in every replica');

  // Every device has the server's key, in the stream's event and in its document pulled from an
  // answer the server gave at or after the start; neither came before the start.
  for (const d of lean) {
    expect(d.streamed.get(QSID)).toBe(serverKey);
    expect(d.pulled.get(QSID)).toBe(serverKey);
    // By the clock the release decided by (Date.now; the arrival times in keyAt are the monotonic
    // clock's, which may drift a millisecond from it).
    expect(d.keyServerTime.get(QSID)).toBeGreaterThanOrEqual(start);
    expect(d.pulledAt.get(QSID)).toBeGreaterThan(start);
  }
  for (const d of replicas) {
    const doc = (await d.db.live_key.findOne(QSID).exec())!;
    expect(doc.key).toBe(serverKey);
    expect(doc.updatedAt).toBeGreaterThanOrEqual(start);
  }
  // Nothing went wrong on the way: the stream told each of them (no device found it only by chance).
  expect(lean.every((d) => d.changes.some((t) => t >= start))).toBe(true);
  // The replicas' only errors, if any, are pulls the busy server refused with 503 (lib/overload.ts), which they sent again.
  for (const e of replicas.flatMap((d) => d.errors)) expect(JSON.stringify((e as { parameters?: unknown }).parameters)).toMatch(/live_key\/pull\?rev=\d+&limit=\d+ answered 503/);
}, 60_000);
