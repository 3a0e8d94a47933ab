import { afterAll, beforeAll, expect, test } from 'vitest';
import { rankIn } from '@pm/protocol/score-dist';
import { COLLECTIONS } from '@pm/protocol/sync/envelopes';
import { refreshDistributions } from '../../server/src/modules/results/score-dist';
import { DEMO } from '../../server/src/test/harness';
import { type Device, eventually, openDevice, PRACTICE_QUESTIONS, startServer, type TestServer } from './harness';

/*
 * A set's score distribution reaches a connected device through the stream and replaces the one
 * it held (docs/live-tests.md "Provisional rank on the device"), and the rank the device works out
 * from it is the server's.
 */

let server: TestServer;
const devices: Device[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const d of devices) await d.close().catch(() => undefined);
  await server.destroy();
});

let learners = 0;
/** A new learner takes the seeded practice set online with these answers to its first questions (the rest unanswered). */
async function takeOnline(answers: string[]): Promise<string> {
  const n = learners++;
  const signup = await server.harness.request('POST', '/UserLogin', {
    body: { n: `Distribution Learner ${n}`, m: `96${String(n).padStart(8, '0')}`, password: 'distribution1234', confirmPassword: 'distribution1234', p: 'demo-learner', terms: true },
  });
  expect(signup.status, JSON.stringify(signup.body)).toBe(201);
  const token = signup.body.token as string;
  const ures = Object.fromEntries(PRACTICE_QUESTIONS.map((q, i) => [q, answers[i] ?? null]));
  expect((await server.harness.request('POST', '/question/submitUserResponse', { token, body: { qsid: 'qs-practice-gk', ures } })).status).toBe(200);
  return token;
}

test("a set's distribution replicates to a connected device, a newer one replaces it, and the device's rank is the server's", async () => {
  const token = await server.harness.tokenOf('learner');
  const device = await openDevice(DEMO.learner.id, server, { token: () => token, collections: COLLECTIONS });
  devices.push(device);
  await device.replication.awaitInSync();
  expect(await device.db.score_dist.find().exec()).toEqual([]);

  const options = ['a', 'b', 'c', 'd'];
  for (let i = 0; i < 10; i++) await takeOnline(PRACTICE_QUESTIONS.map((_, k) => options[(i + k) % 4]!).slice(0, 1 + (i % 10)));
  expect(await refreshDistributions(server.harness.deps)).toBe(1);
  await eventually(async () => (await device.db.score_dist.findOne('qs-practice-gk').exec())?.n === 10, 15_000, 'the distribution on the device');

  const last = await takeOnline(['a', 'b', 'c']);
  const before = (await device.db.score_dist.findOne('qs-practice-gk').exec())!.toJSON();
  const mine = (await server.harness.request('GET', '/question/getExamResult?qsid=qs-practice-gk', { token: last })).body.totalMarks as number;
  const serverRank = (await server.harness.request('GET', '/question/getRank?qsid=qs-practice-gk', { token: last })).body;
  // Built before the learner's result: the device adds them, as the server did.
  expect(rankIn(before.t, mine, false)).toEqual({ rank: serverRank.rank, of: serverRank.of, percentile: serverRank.percentile });

  expect(await refreshDistributions(server.harness.deps)).toBe(1);
  await eventually(async () => (await device.db.score_dist.findOne('qs-practice-gk').exec())?.n === 11, 15_000, 'the newer distribution on the device');
  const after = (await device.db.score_dist.findOne('qs-practice-gk').exec())!.toJSON();
  expect(await device.db.score_dist.count().exec()).toBe(1);
  expect(rankIn(after.t, mine, true)).toEqual({ rank: serverRank.rank, of: serverRank.of, percentile: serverRank.percentile });
});
