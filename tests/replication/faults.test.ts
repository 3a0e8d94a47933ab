import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { mulberry32 } from '@pm/protocol/seeded-random';
import { DEMO } from '../../server/src/test/harness';
import {
  answer,
  attemptRows,
  type Device,
  eventually,
  expectConverged,
  Network,
  newAttempt,
  openDevice,
  PRACTICE_QUESTIONS,
  pullAll,
  resultRows,
  startServer,
  type TestServer,
} from './harness';

/*
 * Replication under faults (ARCHITECTURE decision 3: nothing a learner did is lost; pushing the
 * same thing twice stores it once): devices of one person going offline, the server going away
 * mid-replication, and a network that loses requests and answers at random. RxDB with Dexie on
 * fake-indexeddb, against the real server over HTTP.
 */

const P = DEMO.learner.id;
let server: TestServer;
let token: string;
const open: Device[] = [];

beforeAll(async () => {
  server = await startServer();
  token = await server.harness.tokenOf('learner');
}, 30_000);
afterAll(() => server.destroy(), 30_000);

/** Opens a device that is closed at the end of the test (RxDB open core: 16 collections at most). */
async function device(opts: { net?: Network } = {}): Promise<Device> {
  const d = await openDevice(P, server, { token: () => token, ...opts });
  open.push(d);
  return d;
}
async function closeAll() {
  while (open.length) await open.pop()!.close();
}
afterEach(closeAll, 30_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** No attempt appears twice: the table's ids, the server's pull and a device agree one to one. */
async function expectNoDuplicates(devices: Device[]) {
  const rows = await attemptRows(server, P);
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  const pulled = await pullAll(server, token, 'test_summary');
  expect(pulled.map((d) => d.id).sort()).toEqual(rows.map((r) => r.id).sort());
  const live = rows.filter((r) => !r.deleted).map((r) => r.id).sort();
  for (const d of devices) {
    const local = (await d.db.test_summary.find().exec()).map((x) => x.id);
    expect(local.sort()).toEqual(live);
  }
}

test('two devices edit different attempts and the same attempt while one is offline; both end equal to the server', async () => {
  const netB = new Network();
  const a = await device();
  const b = await device({ net: netB });
  await Promise.all([a.replication.awaitInSync(), b.replication.awaitInSync()]);
  await a.db.test_summary.insert(newAttempt('conv-shared-1'));
  await eventually(async () => (await b.db.test_summary.findOne('conv-shared-1').exec()) !== null, 20_000, 'b has the shared attempt');

  netB.goOffline();
  // Both answer other questions of the same attempt, and each starts an attempt of its own.
  await answer(a, 'conv-shared-1', 'q-gk-001', 'a');
  await a.db.test_summary.insert(newAttempt('conv-only-a', { answers: { 'q-gk-008': { ua: 'b', status: 'ANSWERED' } } }));
  await answer(b, 'conv-shared-1', 'q-gk-003', 'c');
  await b.db.test_summary.insert(newAttempt('conv-only-b', { qsid: 'qs-mock-ssc-1' }));
  await answer(b, 'conv-only-b', 'q-gk-004', 'd');
  await answer(b, 'conv-shared-1', 'q-gk-005', 'a');

  // a's changes reach the server while b is away; b knows it is offline and has two uploads waiting.
  await eventually(async () => (await attemptRows(server, P)).some((r) => r.id === 'conv-only-a'), 20_000, 'a uploads');
  await eventually(() => a.status().pending === 0, 20_000, 'a has nothing pending');
  await eventually(() => b.status().online === false && b.status().pending === 2, 20_000, 'b offline with 2 pending');
  expect((await attemptRows(server, P)).some((r) => r.id === 'conv-only-b')).toBe(false);

  netB.goOnline();
  const final = await expectConverged(server, token, [a, b]);
  expect(Object.keys(final.test_summary).sort()).toEqual(['conv-only-a', 'conv-only-b', 'conv-shared-1']);
  expect(final.test_summary['conv-shared-1']!.answers).toEqual({
    'q-gk-001': { ua: 'a', status: 'ANSWERED' },
    'q-gk-003': { ua: 'c', status: 'ANSWERED' },
    'q-gk-005': { ua: 'a', status: 'ANSWERED' },
  });
  expect(final.test_summary['conv-only-b']!.answers).toEqual({ 'q-gk-004': { ua: 'd', status: 'ANSWERED' } });
  await eventually(() => a.status().pending === 0 && b.status().pending === 0, 20_000, 'nothing pending');
  await expectNoDuplicates([a, b]);
}, 60_000);

test('the server stops and restarts mid-replication; a device that kept writing ends equal to it, nothing duplicated', async () => {
  const d = await device();
  await d.replication.awaitInSync();
  const mine: string[] = [];
  let writing = true;
  // The learner keeps working: a new attempt, then an answer to an earlier one, and so on.
  const writer = (async () => {
    for (let i = 1; writing; i++) {
      if (i % 2 === 1) {
        const id = `restart-${String(mine.length + 1).padStart(3, '0')}`;
        await d.db.test_summary.insert(newAttempt(id));
        mine.push(id);
      } else {
        await answer(d, mine[(i * 7) % mine.length]!, PRACTICE_QUESTIONS[i % PRACTICE_QUESTIONS.length]!, 'a');
      }
      await sleep(15);
    }
  })();
  const onServer = async () => (await attemptRows(server, P)).filter((r) => r.id.startsWith('restart-')).length;
  await eventually(async () => (await onServer()) >= 3, 20_000, 'replication under way');

  await server.stop();
  const atStop = mine.length;
  await eventually(() => mine.length >= atStop + 8 && d.status().online === false, 20_000, 'writes during the outage');
  server = await server.restart();
  await eventually(() => mine.length >= atStop + 16, 20_000, 'writes after the restart');
  writing = false;
  await writer;

  const final = await expectConverged(server, token, [d]);
  expect(Object.keys(final.test_summary).filter((id) => id.startsWith('restart-')).sort()).toEqual([...mine].sort());
  await eventually(() => d.status().pending === 0, 20_000, 'nothing pending');
  await expectNoDuplicates([d]);

  // A device of the same person that starts now pulls each attempt once, equal to the server.
  const fresh = await device();
  await expectConverged(server, token, [fresh, d]);
}, 60_000);

// Reproducible: FAULT_SEED=<n> replays the same faults and the same learner actions.
const seed = Number(process.env.FAULT_SEED ?? 76_123_103);

test(`random faults for a while (requests lost, answers lost, 5xx; seed ${seed}): afterwards clients and server hold the same documents, once each`, async () => {
  const faults = mulberry32(seed);
  const actions = mulberry32(seed + 1);
  const net = new Network();
  net.rule = () => {
    const x = faults();
    if (x < 0.12) return 'drop';
    if (x < 0.24) return 'lose';
    if (x < 0.34) return '5xx';
    return null;
  };
  // Device a is on the faulty network from the start (initial pulls included); b is a second
  // device of the same person on a good network, answering the attempts they share.
  const a = await device({ net });
  const b = await device();
  await b.replication.awaitInSync();

  const shared = ['fault-shared-1', 'fault-shared-2'];
  for (const id of shared) await b.db.test_summary.insert(newAttempt(id));
  await eventually(async () => (await a.db.test_summary.findByIds(shared).exec()).size === shared.length, 20_000, 'a has the shared attempts');

  /** What each attempt must end with: every answer given, on either device. */
  const expected = new Map<string, Record<string, string>>(shared.map((id) => [id, {}]));
  const own: string[] = [];
  const submitted = new Set<string>();
  for (let step = 0; step < 36; step++) {
    const x = actions();
    const inProgress = own.filter((id) => !submitted.has(id));
    if (x < 0.25 || inProgress.length === 0) {
      const id = `fault-own-${String(own.length + 1).padStart(2, '0')}`;
      await a.db.test_summary.insert(newAttempt(id));
      own.push(id);
      expected.set(id, {});
    } else if (x < 0.55) {
      const id = inProgress[Math.floor(actions() * inProgress.length)]!;
      const q = PRACTICE_QUESTIONS[step % PRACTICE_QUESTIONS.length]!;
      await answer(a, id, q, 'a');
      expected.get(id)![q] = 'a';
    } else if (x < 0.65) {
      const id = inProgress[Math.floor(actions() * inProgress.length)]!;
      const doc = (await a.db.test_summary.findOne(id).exec())!;
      await doc.incrementalPatch({ status: 'SUBMITTED', submittedAt: Date.now(), updatedAt: Math.max(Date.now(), doc.updatedAt + 1) });
      submitted.add(id);
    } else {
      // Both devices answer the shared attempts (different questions — a the first half of the
      // set, b the second — so both answers must survive).
      const [dev, who] = x < 0.82 ? [a, 'a'] : [b, 'b'];
      const id = shared[Math.floor(actions() * shared.length)]!;
      const half = PRACTICE_QUESTIONS.length / 2;
      const q = PRACTICE_QUESTIONS[(who === 'a' ? 0 : half) + (step % half)]!;
      await answer(dev, id, q, who);
      expected.get(id)![q] = who;
    }
    await sleep(10 + Math.floor(actions() * 30));
  }
  net.rule = null;

  const final = await expectConverged(server, token, [a, b], 30_000);
  for (const [id, answers] of expected) {
    const doc = final.test_summary[id]!;
    expect(doc, id).toBeDefined();
    expect(Object.fromEntries(Object.entries(doc.answers as Record<string, { ua: string }>).map(([q, v]) => [q, v.ua])), id).toEqual(answers);
    expect(doc.status, id).toBe(submitted.has(id) ? 'SUBMITTED' : 'IN_PROGRESS');
  }
  // Each submission scored once (lost answers made the device push some of them again), and
  // the results came back to both devices (expectConverged compared exam_result too).
  expect(submitted.size).toBeGreaterThan(0);
  const results = (await resultRows(server, P)).filter((r) => r.attemptId.startsWith('fault-'));
  expect(results.map((r) => r.attemptId).sort()).toEqual([...submitted].sort());
  expect(Object.values(final.exam_result).filter((r) => String(r.attemptId).startsWith('fault-'))).toHaveLength(submitted.size);
  await eventually(() => a.status().pending === 0 && b.status().pending === 0, 20_000, 'nothing pending');
  await eventually(() => a.status().phase === 'synced', 20_000, 'a synced');
  await expectNoDuplicates([a, b]);
  // Every kind of fault happened, more than once.
  expect(net.stats.drop).toBeGreaterThan(1);
  expect(net.stats.lose).toBeGreaterThan(1);
  expect(net.stats['5xx']).toBeGreaterThan(1);
}, 60_000);
