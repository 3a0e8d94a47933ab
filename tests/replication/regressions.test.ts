import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { DEMO } from '../../server/src/test/harness';
import {
  answer,
  attemptRows,
  type Device,
  type DeviceOptions,
  eventually,
  expectConverged,
  expiredTokenOf,
  type Fault,
  Network,
  newAttempt,
  openDevice,
  resultRows,
  startServer,
  type SyncRequest,
  type TestServer,
} from './harness';

/*
 * Regression cases modelled on replication bugs reported against RxDB, and the guarantees of
 * ARCHITECTURE decision 3 that sit at the edge of the protocol (a submitted attempt is final; an
 * expired login does not lose what waits to upload).
 */

const P = DEMO.learner.id;
let server: TestServer;
let token: string;
let editor: string;
const open: Device[] = [];

beforeAll(async () => {
  server = await startServer();
  [token, editor] = await Promise.all([server.harness.tokenOf('learner'), server.harness.tokenOf('editor')]);
}, 30_000);
afterAll(() => server.destroy(), 30_000);

async function device(opts: Partial<DeviceOptions> = {}): Promise<Device> {
  const d = await openDevice(P, server, { token: () => token, ...opts });
  open.push(d);
  return d;
}
async function closeAll() {
  while (open.length) await open.pop()!.close();
}
afterEach(closeAll, 30_000);

const row = async (id: string) => (await attemptRows(server, P)).find((r) => r.id === id);
const local = (d: Device, id: string) => d.db.test_summary.findOne(id).exec();

test('rxdb#3103: pushes that fail while the server has new data for this device do not make it skip that data', async () => {
  // https://github.com/pubkey/rxdb/issues/3103 ("Possible sync bug"): "rxdb would pull data after
  // unsuccessful push requests, causing some data to be skipped". Here the device's pushes fail in
  // every way (the first one reaches the server but its answer is lost) while the server gets new
  // data for it: another device's attempt and a new tag. Afterwards the device has all of it and
  // its own attempt is on the server once.
  const net = new Network();
  const d = await device({ net });
  const other = await device();
  await Promise.all([d.replication.awaitInSync(), other.replication.awaitInSync()]);

  const kinds: Fault[] = ['lose', 'drop', '5xx'];
  let failed = 0;
  let failPushes = true;
  net.rule = (req: SyncRequest) => (failPushes && req.kind === 'push' ? kinds[failed++ % kinds.length]! : null);

  await d.db.test_summary.insert(newAttempt('r3103-local', { answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' } } }));
  await eventually(() => failed >= 3, 20_000, 'pushes failing');
  expect(await row('r3103-local')).toBeDefined(); // the lost answer: the server has it, the device does not know

  await other.db.test_summary.insert(newAttempt('r3103-remote', { answers: { 'q-gk-008': { ua: 'b', status: 'ANSWERED' } } }));
  await eventually(async () => (await row('r3103-remote')) !== undefined, 20_000, 'the other device uploads');
  const tag = await server.harness.request('PATCH', '/tag', { token: editor, body: { key: 't', newTag: 'Rxdb 3103 Current Affairs', lang: 'en' } });
  expect(tag.status).toBe(200);
  // The device is told to pull (as on reconnect) while its push still fails.
  d.replication.reSync();
  await eventually(() => failed >= 6, 20_000, 'more failed pushes');

  failPushes = false;
  const final = await expectConverged(server, token, [d, other]);
  expect(Object.keys(final.test_summary)).toEqual(expect.arrayContaining(['r3103-local', 'r3103-remote']));
  expect(Object.values(final.tag).some((t) => JSON.stringify(t).includes('Rxdb 3103 Current Affairs'))).toBe(true);
  expect((await local(d, 'r3103-remote'))?.answers).toEqual({ 'q-gk-008': { ua: 'b', status: 'ANSWERED' } });
  await eventually(() => d.status().pending === 0, 20_000, 'nothing pending');
  expect((await attemptRows(server, P)).filter((r) => r.id === 'r3103-local')).toHaveLength(1);
}, 60_000);

test('rxdb#5843: offline edits on both sides, pull before push on reconnect: both converge and no answer is lost', async () => {
  // https://github.com/pubkey/rxdb/issues/5843 ("Checkpoint iteration strategy failing in
  // simultaneous pull-push scenario"): a document changed on the server while the client, offline,
  // changed it too; back online the pull ran first, then the push, and the checkpoint moved past
  // the pulled document while the collection still held the older one. Here: the app is closed
  // (replication stopped) while the learner answers on this device and another device answers
  // the same attempt; on the next start pushes are held back until a pull has been answered.
  const net = new Network();
  const d = await device({ net });
  const e = await device();
  await Promise.all([d.replication.awaitInSync(), e.replication.awaitInSync()]);
  await e.db.test_summary.insert(newAttempt('r5843-shared'));
  await eventually(async () => (await local(d, 'r5843-shared')) !== null, 20_000, 'd has the attempt');

  await d.stop();
  await answer(d, 'r5843-shared', 'q-gk-001', 'd');
  await answer(e, 'r5843-shared', 'q-gk-008', 'e');
  await answer(e, 'r5843-shared', 'q-gk-003', 'e');
  await eventually(async () => (await row('r5843-shared'))?.answers['q-gk-003'] !== undefined, 20_000, 'e uploads');

  const delivered: string[] = [];
  net.onDelivered = (req, status) => {
    if (req.collection === 'test_summary' && status === 200) delivered.push(req.kind);
  };
  net.rule = (req) => (req.kind === 'push' && !delivered.includes('pull') ? 'drop' : null);
  d.start();
  const final = await expectConverged(server, token, [d, e]);
  expect(delivered.indexOf('pull')).toBeLessThan(delivered.indexOf('push'));
  expect(final.test_summary['r5843-shared']!.answers).toEqual({
    'q-gk-001': { ua: 'd', status: 'ANSWERED' },
    'q-gk-003': { ua: 'e', status: 'ANSWERED' },
    'q-gk-008': { ua: 'e', status: 'ANSWERED' },
  });

  // The checkpoints still work both ways: later changes on either side arrive.
  await answer(e, 'r5843-shared', 'q-gk-011', 'e');
  await eventually(async () => (await local(d, 'r5843-shared'))?.answers['q-gk-011'] !== undefined, 20_000, 'd sees a later change of e');
  await answer(d, 'r5843-shared', 'q-gk-005', 'd');
  await eventually(async () => (await local(e, 'r5843-shared'))?.answers['q-gk-005'] !== undefined, 20_000, 'e sees a later change of d');
  await expectConverged(server, token, [d, e]);
  await eventually(() => d.status().pending === 0 && e.status().pending === 0, 20_000, 'nothing pending');
}, 60_000);

test('rxdb#7612: attempts deleted before they synced cause no error loop and leave nothing on the server; pending returns to 0', async () => {
  // https://github.com/pubkey/rxdb/issues/7612 ("Supabase replication throws 'doc not found' when
  // deleting document that was never synced"): a document created locally and deleted before it
  // synced made every push fail, again and again. Here, offline: one attempt created and deleted;
  // one that had synced, deleted; one whose upload reached the server but whose answer was lost,
  // deleted. Pushes go through one queue, so an attempt written afterwards reaching the server
  // shows that nothing is stuck behind them.
  const net = new Network();
  const d = await device({ net });
  await d.replication.awaitInSync();
  await d.db.test_summary.insert(newAttempt('r7612-synced'));
  await eventually(async () => (await row('r7612-synced')) !== undefined, 20_000, 'synced');
  await eventually(() => d.status().pending === 0, 20_000, 'nothing pending');

  // The upload of r7612-lost reaches the server, the answer is lost and the device goes offline.
  let loseNext = true;
  net.rule = (req) => {
    if (req.kind !== 'push' || !loseNext) return null;
    loseNext = false;
    net.offline = true; // this request is under way; the next ones find no network
    return 'lose';
  };
  await d.db.test_summary.insert(newAttempt('r7612-lost'));
  await eventually(async () => (await row('r7612-lost')) !== undefined && d.status().online === false, 20_000, 'lost answer, offline');
  net.goOffline();

  await d.db.test_summary.insert(newAttempt('r7612-never', { answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' } } }));
  await answer(d, 'r7612-never', 'q-gk-008', 'b');
  for (const id of ['r7612-never', 'r7612-synced', 'r7612-lost']) await (await local(d, id))!.remove();
  expect(d.status().pending).toBe(0);

  net.goOnline();
  await d.db.test_summary.insert(newAttempt('r7612-after'));
  await eventually(async () => (await row('r7612-after')) !== undefined, 20_000, 'a later attempt uploads');
  await eventually(async () => (await row('r7612-synced'))?.deleted === true && (await row('r7612-lost'))?.deleted === true, 20_000, 'deletions on the server');
  await eventually(() => d.status().pending === 0 && d.status().phase === 'synced', 20_000, 'synced, nothing pending');
  expect(await row('r7612-never')).toBeUndefined();

  // No error loop: once synced, another round trip of uploads adds no error.
  const errors = d.errors.length;
  await d.db.test_summary.insert(newAttempt('r7612-after-2'));
  await eventually(async () => (await row('r7612-after-2')) !== undefined, 20_000, 'another attempt uploads');
  await eventually(() => d.status().pending === 0 && d.status().phase === 'synced', 20_000, 'synced again');
  expect(d.errors.slice(errors)).toEqual([]);
  const final = await expectConverged(server, token, [d]);
  expect(Object.keys(final.test_summary)).not.toContain('r7612-never');
  expect(Object.keys(final.test_summary)).not.toContain('r7612-synced');
}, 60_000);

test('a submitted attempt is immutable: a device that changed or deleted it offline ends with the submitted server state', async () => {
  const netB = new Network();
  const a = await device();
  const b = await device({ net: netB });
  await Promise.all([a.replication.awaitInSync(), b.replication.awaitInSync()]);
  for (const id of ['submitted-x', 'submitted-y']) await a.db.test_summary.insert(newAttempt(id));
  await eventually(async () => (await b.db.test_summary.findByIds(['submitted-x', 'submitted-y']).exec()).size === 2, 20_000, 'b has both');

  netB.goOffline();
  await answer(a, 'submitted-x', 'q-gk-001', 'a');
  for (const id of ['submitted-x', 'submitted-y']) {
    const doc = (await local(a, id))!;
    await doc.incrementalPatch({ status: 'SUBMITTED', submittedAt: Date.now(), updatedAt: Math.max(Date.now(), doc.updatedAt + 1) });
  }
  await eventually(async () => (await row('submitted-x'))?.status === 'SUBMITTED' && (await row('submitted-y'))?.status === 'SUBMITTED', 20_000, 'submitted on the server');
  const submitted = { x: (await row('submitted-x'))!, y: (await row('submitted-y'))! };

  // b, offline and later in time, still sees them in progress: it answers x and deletes y.
  await answer(b, 'submitted-x', 'q-gk-008', 'b');
  await answer(b, 'submitted-x', 'q-gk-001', 'changed');
  await (await local(b, 'submitted-y'))!.remove();

  netB.goOnline();
  const final = await expectConverged(server, token, [a, b]);
  expect(final.test_summary['submitted-x']).toMatchObject({ status: 'SUBMITTED', answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' } } });
  expect(Object.keys(final.test_summary['submitted-x']!.answers as object)).toEqual(['q-gk-001']);
  expect(final.test_summary['submitted-y']).toMatchObject({ status: 'SUBMITTED' });
  // The server's rows did not change at all (same revision), and each was scored once.
  expect(await row('submitted-x')).toEqual(submitted.x);
  expect(await row('submitted-y')).toEqual(submitted.y);
  expect((await resultRows(server, P)).filter((r) => r.attemptId.startsWith('submitted-')).map((r) => r.attemptId).sort()).toEqual(['submitted-x', 'submitted-y']);
  expect(Object.values(final.exam_result).filter((r) => String(r.attemptId).startsWith('submitted-'))).toHaveLength(2);
  await eventually(() => b.status().pending === 0, 20_000, 'nothing pending on b');
}, 60_000);

test('an expired login (401) keeps the queued attempt: signed-out, then a fresh token and a restart upload it', async () => {
  let current = token;
  // A long retry ceiling, as in the app: after a 401 only a restart (replica.ts syncNow) retries soon.
  const d = await device({ token: () => current, retryMaxMs: 60_000 });
  await d.replication.awaitInSync();

  current = await expiredTokenOf(server, P);
  await d.db.test_summary.insert(newAttempt('r401-queued', { status: 'SUBMITTED', submittedAt: Date.now(), answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' } } }));
  await eventually(() => d.status().phase === 'signed-out', 20_000, 'signed-out');
  expect(await row('r401-queued')).toBeUndefined();
  expect(d.status().pending).toBe(1);

  // The learner signs in again; the app restarts the replication on the same database.
  current = await server.harness.tokenOf('learner');
  await d.restart();
  await eventually(async () => (await row('r401-queued')) !== undefined, 20_000, 'the queued attempt uploads');
  expect(await row('r401-queued')).toMatchObject({ status: 'SUBMITTED', answers: { 'q-gk-001': { ua: 'a', status: 'ANSWERED' } } });
  await eventually(() => d.status().pending === 0 && d.status().phase === 'synced', 20_000, 'synced, nothing pending');
  // The result of the submission comes back to the device.
  await eventually(async () => (await d.db.exam_result.find({ selector: { attemptId: 'r401-queued' } }).exec()).length === 1, 20_000, 'result on the device');
  await expectConverged(server, token, [d]);
}, 60_000);
