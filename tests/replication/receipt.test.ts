import { afterAll, beforeAll, expect, test } from 'vitest';
import { keepReceipt, readReceipt } from '../../client/src/db/attempts/receipts';
import { DEMO } from '../../server/src/test/harness';
import { receiptHash } from '@pm/protocol/receipt';
import { answer, type Device, eventually, Network, newAttempt, openDevice, PRACTICE_QUESTIONS, resultRows, startServer, type TestServer } from './harness';

/*
 * The submission receipt (docs/exams.md "Answers and marking"): a learner submits offline and keeps a receipt on the device; when the submission
 * reaches the server (through a flaky network: pushes lost after the server handled them), the
 * result that replicates back carries the server's receipt, equal to the device's.
 */

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

test('a submission made offline: the device keeps its receipt, and the replicated result carries the same hash', async () => {
  const net = new Network();
  const device = await openDevice(DEMO.learner.id, server, { token: () => token, net });
  devices.push(device);
  await device.replication.awaitInSync();

  net.goOffline();
  const id = 'attempt-receipt-offline-1';
  await device.db.test_summary.insert(newAttempt(id));
  for (const [i, q] of PRACTICE_QUESTIONS.slice(0, 6).entries()) await answer(device, id, q, ['a', 'b', 'c', 'd'][i % 4]!);
  const doc = await device.db.test_summary.findOne(id).exec();
  const submitted = await doc!.incrementalPatch({ status: 'SUBMITTED', submittedAt: Date.now(), updatedAt: Date.now() + 1 });
  const deviceAt = Date.now();
  const kept = await keepReceipt(device.db, submitted.toMutableJSON(), { setLabel: 'GK practice', deviceAt });
  expect(kept).toMatchObject({ attemptId: id, qsid: 'qs-practice-gk', setLabel: 'GK practice', deviceAt, serverAt: submitted.submittedAt });
  expect(kept.hash).toBe(await receiptHash(submitted.toMutableJSON()));
  // Kept once: a second call (another tab, a reload) returns the first receipt.
  expect(await keepReceipt(device.db, submitted.toMutableJSON(), { setLabel: 'GK practice', deviceAt: deviceAt + 5000 })).toEqual(kept);

  // Online through a bad network: the first two pushes reach the server but their answers are lost.
  let lost = 0;
  net.rule = (req) => (req.kind === 'push' && lost++ < 2 ? 'lose' : null);
  net.goOnline();
  await device.restart();
  await eventually(async () => (await device.db.exam_result.findOne({ selector: { attemptId: id } }).exec()) !== null, 20_000, 'result on the device');
  const result = await device.db.exam_result.findOne({ selector: { attemptId: id } }).exec();
  expect(result!.receipt).toBe(kept.hash);
  expect(await readReceipt(device.db, id)).toEqual(kept);
  // Scored once on the server, with that receipt.
  expect((await resultRows(server, DEMO.learner.id)).filter((r) => r.attemptId === id).map((r) => r.receipt)).toEqual([kept.hash]);
});
