import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { createRxDatabase, type RxJsonSchema } from 'rxdb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { rankIn } from '@pm/protocol/score-dist';
import { decodeHistogram } from '@pm/protocol/score-dist-code';
import { rxSchemaOf } from '@pm/protocol/sync/rxdb-schemas';
import { scoreDistListsDocSchema } from '@pm/protocol/sync/score-dist';
import { PROTOCOL_HEADER } from '@pm/protocol/version';
import { openReplicaDatabase, type ReplicaDatabase } from '../../client/src/db/core/database';
import { startReplication } from '../../client/src/db/learner/replication';
import { refreshDistributions } from '../../server/src/modules/results/score-dist';
import { DEMO } from '../../server/src/test/harness';
import { eventually, PRACTICE_QUESTIONS, startServer, type TestServer } from './harness';

/*
 * A phone whose app spoke protocol 1.0 held score distributions as two lists per histogram (RxDB
 * schema version 0). Its app updates: the database migrates the documents and the replication's
 * record of them to the compact form, and the next distribution the server builds replaces the
 * migrated one (docs/live-tests.md "Older apps").
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.destroy());

let learners = 0;
/** A new learner takes the seeded practice set online with these answers to its first questions. */
async function takeOnline(answers: string[]): Promise<string> {
  const n = learners++;
  const signup = await server.harness.request('POST', '/UserLogin', {
    body: { n: `Upgrade Learner ${n}`, m: `95${String(n).padStart(8, '0')}`, password: 'distribution1234', confirmPassword: 'distribution1234', p: 'demo-learner', terms: true },
  });
  expect(signup.status, JSON.stringify(signup.body)).toBe(201);
  const token = signup.body.token as string;
  const ures = Object.fromEntries(PRACTICE_QUESTIONS.map((q, i) => [q, answers[i] ?? null]));
  expect((await server.harness.request('POST', '/question/submitUserResponse', { token, body: { qsid: 'qs-practice-gk', ures } })).status).toBe(200);
  return token;
}

/** score_dist's RxDB schema of protocol 1.0: version 0, the histograms as two lists. */
function listsSchema() {
  const schema = rxSchemaOf('score_dist');
  const lists = z.toJSONSchema(scoreDistListsDocSchema.pick({ t: true, s: true })) as { properties: Record<string, unknown> };
  return { ...schema, version: 0, properties: { ...schema.properties, ...lists.properties } } as unknown as RxJsonSchema<unknown>;
}

/** An app of protocol 1.0: its requests say so (the pulls; it opens no stream here). */
const asOldApp: typeof fetch = (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), [PROTOCOL_HEADER]: '1.0.0' } });

test('an app update migrates a held distribution to the compact form; the next one replaces it', async () => {
  const options = ['a', 'b', 'c', 'd'];
  for (let i = 0; i < 10; i++) await takeOnline(PRACTICE_QUESTIONS.map((_, k) => options[(i * 3 + k) % 4]!).slice(0, 2 + (i % 8)));
  expect(await refreshDistributions(server.harness.deps)).toBe(1);

  const token = await server.harness.tokenOf('learner');
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageDexie({ indexedDB, IDBKeyRange }) });
  const name = `upgrade-${Date.now()}`;
  const replicationOptions = { baseUrl: server.url, getToken: () => token, waitForLeadership: false, retryBaseMs: 50, retryMaxMs: 400 };

  // Before the update: the old app pulls the two lists.
  const old = await createRxDatabase({ name, storage, multiInstance: false, localDocuments: true });
  // test_summary too: the replication counts the attempts waiting to upload.
  await old.addCollections({ score_dist: { schema: listsSchema() }, test_summary: { schema: rxSchemaOf('test_summary') as unknown as RxJsonSchema<unknown> } });
  const before = startReplication(old as unknown as ReplicaDatabase, { ...replicationOptions, fetch: asOldApp, stream: false });
  await before.awaitInSync();
  const held = (await old.score_dist!.findOne('qs-practice-gk').exec())!.toJSON() as { n: number; t: { m: number[]; c: number[] } };
  expect(held.n).toBe(10);
  expect(Array.isArray(held.t.m)).toBe(true);
  await before.stop();
  await old.close();

  // The update: the same database, opened by the new app.
  const db = await openReplicaDatabase(DEMO.learner.id, { storage, multiInstance: false, name, collections: ['test_summary', 'score_dist'] });
  const migrated = (await db.score_dist.findOne('qs-practice-gk').exec())!.toJSON();
  expect(typeof migrated.t).toBe('string');
  expect(decodeHistogram(migrated.t)).toEqual(held.t);
  const errors: unknown[] = [];
  const after = startReplication(db, replicationOptions);
  after.states.score_dist?.error$.subscribe((e) => errors.push(e));
  try {
    await after.awaitInSync();
    // One more learner: the server's next distribution replaces the migrated one.
    const last = await takeOnline(['a', 'b', 'c']);
    expect(await refreshDistributions(server.harness.deps)).toBe(1);
    await eventually(async () => (await db.score_dist.findOne('qs-practice-gk').exec())?.n === 11, 15_000, 'the next distribution on the updated device');
    const next = (await db.score_dist.findOne('qs-practice-gk').exec())!.toJSON();
    expect(typeof next.t).toBe('string');
    const mine = (await server.harness.request('GET', '/question/getExamResult?qsid=qs-practice-gk', { token: last })).body.totalMarks as number;
    const serverRank = (await server.harness.request('GET', '/question/getRank?qsid=qs-practice-gk', { token: last })).body;
    expect(rankIn(next.t, mine, true)).toEqual({ rank: serverRank.rank, of: serverRank.of, percentile: serverRank.percentile });
    expect(errors).toEqual([]);
  } finally {
    await after.stop();
    await db.remove();
  }
});
