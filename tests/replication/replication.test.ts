import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEMO } from '../../server/src/test/harness';
import { type Device, eventually, openDevice, startServer, type TestServer } from './harness';

let server: TestServer;
let token: string;
const devices: Device[] = [];

beforeAll(async () => {
  server = await startServer();
  token = await server.harness.tokenOf('learner');
});
afterAll(async () => {
  for (const d of devices) await d.close().catch(() => undefined);
  await server.stop();
});

function attempt(id: string, patch: Record<string, unknown> = {}) {
  return {
    id,
    qsid: 'qs-practice-gk',
    st: Date.now(),
    sfs: 0,
    lsq: null,
    index: 0,
    selectedSection: null,
    answers: {},
    status: 'IN_PROGRESS' as const,
    submittedAt: null,
    updatedAt: Date.now(),
    ...patch,
  };
}

test('a device pulls tags, published sets and their details, and pushes an attempt', async () => {
  const d = await openDevice(DEMO.learner.id, server, { token: () => token });
  await d.replication.awaitInSync();
  const sets = await d.db.question_set.find().exec();
  expect(sets.map((s) => s.id).sort()).toEqual(['qs-hindi-sub', 'qs-mock-ssc-1', 'qs-practice-gk', 'qs-practice-numerical']);
  expect(await d.db.qs_detail.count().exec()).toBe(4);
  expect(await d.db.tag.count().exec()).toBeGreaterThan(10);

  await d.db.test_summary.insert(attempt('attempt-device-a-1', { answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' } } }));
  await eventually(async () => {
    const r = await server.harness.request('GET', '/sync/v1/test_summary/pull?rev=0&limit=100', { token, headers: { 'X-Sync-Protocol': '1.0.0' } });
    return r.body.documents.some((x: { id: string }) => x.id === 'attempt-device-a-1');
  }, 10_000, 'attempt on the server');
  await eventually(() => d.status().pending === 0, 5000, 'no pending uploads');
  expect(d.status().lastSync).not.toBeNull();
  // RxDB's open core allows 16 open collections per process: close devices when done.
  await d.close();
});

test('two devices of one person converge, answers from both survive', async () => {
  const a = await openDevice(DEMO.learner.id, server, { token: () => token });
  const b = await openDevice(DEMO.learner.id, server, { token: () => token });
  devices.push(a, b);
  await Promise.all([a.replication.awaitInSync(), b.replication.awaitInSync()]);
  await a.db.test_summary.insert(attempt('attempt-converge-1', { answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' } } }));
  await eventually(async () => (await b.db.test_summary.findOne('attempt-converge-1').exec()) !== null, 10_000, 'b sees a');
  const onB = await b.db.test_summary.findOne('attempt-converge-1').exec();
  await onB!.incrementalPatch({ answers: { ...onB!.answers, 'q-gk-003': { ua: 'b', status: 'MARKED' } }, updatedAt: Date.now() + 1 });
  await eventually(async () => {
    const onA = await a.db.test_summary.findOne('attempt-converge-1').exec();
    return onA?.answers['q-gk-003']?.ua === 'b';
  }, 10_000, 'a sees b');
  const finalA = (await a.db.test_summary.findOne('attempt-converge-1').exec())!.toJSON();
  const finalB = (await b.db.test_summary.findOne('attempt-converge-1').exec())!.toJSON();
  expect(finalA.answers).toEqual(finalB.answers);
  expect(Object.keys(finalA.answers).sort()).toEqual(['q-gk-001', 'q-gk-003']);
});

test('a device holds its learner’s entitlement document, and a counted attempt updates it on every device', async () => {
  // RxDB's open core allows 16 open collections per process: the devices of the tests before go first.
  for (const d of devices.splice(0)) await d.close();
  const a = await openDevice(DEMO.learner.id, server, { token: () => token });
  const b = await openDevice(DEMO.learner.id, server, { token: () => token });
  devices.push(a, b);
  await Promise.all([a.replication.awaitInSync(), b.replication.awaitInSync()]);
  // Only the learner's own document (the demo learner holds a seeded quarterly plan).
  const held = await a.db.entitlement.find().exec();
  expect(held.map((e) => e.id)).toEqual([DEMO.learner.id]);
  const before = held[0]!.toJSON();
  expect(before.planCode).toBe('QUATERLY_MONTH_PLAN');
  // A practice exam that is not free, started on device a: counted by the server when it arrives.
  await a.db.test_summary.insert(attempt('attempt-counted-1', { qsid: 'qs-hindi-sub' }));
  for (const d of [a, b]) {
    await eventually(async () => (await d.db.entitlement.findOne(DEMO.learner.id).exec())?.counted.includes('attempt-counted-1') === true, 10_000, 'counted on the device');
  }
  const after = (await b.db.entitlement.findOne(DEMO.learner.id).exec())!.toJSON();
  expect(after.practice).toEqual({ limit: before.practice.limit, used: before.practice.used + 1 });
  expect(after.mock).toEqual(before.mock);
  expect(after.overLimit).toEqual(before.overLimit);
});
