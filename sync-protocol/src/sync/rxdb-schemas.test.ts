import { addRxPlugin, createRxDatabase, type RxCollection, type RxDatabase, type RxJsonSchema } from 'rxdb';
import { RxDBDevModePlugin } from 'rxdb/plugins/dev-mode';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { RxDBMigrationSchemaPlugin } from 'rxdb/plugins/migration-schema';
import { wrappedValidateAjvStorage } from 'rxdb/plugins/validate-ajv';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { COLLECTIONS, EDITOR_COLLECTIONS } from './envelopes';
import { encodeHistogram, decodeHistogram } from '../score-dist-code';
import { rankIn } from '../score-dist';
import { RX_SCHEMAS } from './rxdb-json-schemas';
import { MIGRATIONS, SCHEMA_VERSIONS } from './rxdb-migrations';
import { DOC_SCHEMAS, rxSchemaOf } from './rxdb-schemas';
import { scoreDistListsDocSchema } from './score-dist';

/* The RxDB schemas are derived from the zod schemas; RxDB's dev mode and an ajv validator check
   that they are valid RxDB schemas and that documents of the wire pass both sides alike. */

addRxPlugin(RxDBDevModePlugin);

/** A distribution's histograms, as two lists each (what RxDB schema version 0 of score_dist held). */
const TOTALS = { m: [-1.5, 0, 4, 7.25], c: [1, 3, 6, 2] };
const REASONING = { m: [0, 2], c: [5, 7] };
addRxPlugin(RxDBMigrationSchemaPlugin);

const samples = {
  tag: { id: 'gk', key: 's', tid: 'gk', tags: { en: 'General Knowledge', hi: 'सामान्य ज्ञान' }, uat: 1, _deleted: false },
  question_set: {
    id: 'qs-mock',
    l: 'Mock',
    mpq: 2,
    tm: 0,
    nm: 0.5,
    dur: 60,
    isM: true,
    free: false,
    inst: '<p>Read carefully</p>',
    pts: 29_000_000,
    n: 0,
    sections: {
      Reasoning: { ss: false, n: 8, mpq: 2, tm: 16, nm: 0.5, o: 1, names: { hi: 'तर्कशक्ति' } },
      Hindi: { ss: true, n: 2, mpq: 0, tm: 0, nm: 0, o: 2, sub: { Grammar: { n: 2, mpq: 1, tm: 2, nm: 0, o: 1, names: { hi: 'व्याकरण' } } } },
    },
    trans: { hi: { l: 'मॉक', inst: '<p>ध्यान से पढ़ें</p>' } },
    total: 18,
    count: 10,
    updatedAt: 5,
    v: 7,
    tags: { s: ['General Knowledge'], e: ['SSC CGL'], c: [] },
    _deleted: false,
  },
  qs_detail: {
    id: 'qs-mock',
    isM: true,
    main: { q: [], mpq: 2, tm: 0, nm: 0.5, o: 0 },
    sections: { Reasoning: { ss: false, q: ['q1'], mpq: 2, tm: 2, nm: 0.5, o: 1 } },
    questions: [{ id: 'q1', q: '<p>2+2?</p>', ops: { a: '3', b: '4' }, qt: 'mcq1', d: '1', trans: { hi: { q: '<p>2+2?</p>', ops: { a: '३', b: '४' } } } }],
    v: 7,
    _deleted: false,
  },
  test_summary: {
    id: 'attempt-0001',
    qsid: 'qs-mock',
    st: 1,
    sfs: 0,
    lsq: 'q1',
    index: 0,
    selectedSection: 'Reasoning',
    answers: { q1: { ua: 'b', status: 'ANSWERED' }, q2: { ua: ['a', 'c'], status: 'ANSWERED_MARKED' }, q3: { ua: null, status: 'VISITED' } },
    status: 'IN_PROGRESS',
    submittedAt: null,
    updatedAt: 2,
    _deleted: false,
  },
  exam_result: {
    id: 'result-1',
    qsid: 'qs-mock',
    attemptId: 'attempt-0001',
    marks: { wos: 0, Reasoning: 1.5 },
    outOf: { wos: 0, Reasoning: 6 },
    userRes: { wos: {}, Reasoning: { q1: { ua: 'b', mg: 2 }, q2: { ua: ['a', 'c'], mg: -0.5 }, q3: { ua: null, mg: 0 } } },
    totalMarks: 1.5,
    total: 6,
    questions: [
      { id: 'q1', q: '<p>2+2?</p>', ops: { a: '3', b: '4' }, qt: 'mcq1', d: '1', ca: ['b'], trans: { hi: { q: '<p>2+2?</p>', ops: { a: '३', b: '४' }, ca: ['b'] } } },
      { id: 'q3', q: '<p>Capital of India?</p>', ops: {}, qt: 'f', d: '2', ca: ['New Delhi', 'Delhi'], trans: {} },
    ],
    late: false,
    practice: false,
    pending: 0,
    submittedAt: 1_795_000_000_000,
    elapsed: null,
    et: 1_795_000_000,
    receipt: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    _deleted: false,
  },
  entitlement: {
    id: 'demo-learner',
    planCode: 'ONE_MONTH_PLAN',
    planName: { en: 'Monthly', hi: 'मासिक' },
    startsAt: 1_795_000_000_000,
    endsAt: 1_797_600_000_000,
    mock: { limit: 10, used: 2 },
    practice: { limit: null, used: 0 },
    counted: ['attempt-0001', 'attempt-0002'],
    overLimit: ['attempt-0000'],
    updatedAt: 1_795_000_100_000,
    _deleted: false,
  },
  live_key: {
    id: 'qs-mock',
    key: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8',
    start: 1_795_000_000_000,
    win: 900_000,
    res: 1_795_010_000_000,
    sms: true,
    updatedAt: 1_795_000_000_100,
    _deleted: false,
  },
  // Its histograms in their compact form (score-dist-code.ts; the two lists of RxDB schema version 0 in the test of its migration).
  score_dist: {
    id: 'qs-mock',
    n: 12,
    t: encodeHistogram(TOTALS),
    s: { Reasoning: encodeHistogram(REASONING) },
    at: 1_795_000_200_000,
    _deleted: false,
  },
} as const;

let db: RxDatabase<Record<string, RxCollection>>;
beforeAll(async () => {
  db = await createRxDatabase({
    name: `schema-check-${Date.now()}`,
    storage: wrappedValidateAjvStorage({ storage: getRxStorageMemory() }),
  });
  await db.addCollections(Object.fromEntries(COLLECTIONS.map((c) => [c, { schema: rxSchemaOf(c) as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS[c] }])));
});
afterAll(async () => {
  await db.remove();
});

test('every collection has a valid RxDB schema derived from its zod schema', () => {
  for (const c of COLLECTIONS) {
    expect(db.collections[c], c).toBeDefined();
    expect(rxSchemaOf(c).primaryKey).toBe('id');
    expect(Object.keys(rxSchemaOf(c).properties).sort()).toEqual(Object.keys(DOC_SCHEMAS[c].shape).filter((k) => k !== '_deleted').sort());
  }
});

test('the schemas written ahead for the browser (rxdb-schemas.json) are those the zod schemas give: else run `npm run gen:rxdb-schemas`', () => {
  const names = [...COLLECTIONS, ...EDITOR_COLLECTIONS];
  expect(Object.keys(RX_SCHEMAS).sort()).toEqual([...names].sort());
  for (const c of names) expect(RX_SCHEMAS[c], `${c}: run npm run gen:rxdb-schemas`).toStrictEqual(JSON.parse(JSON.stringify(rxSchemaOf(c))));
});

test('a document of the wire is accepted by both the zod and the RxDB schema', async () => {
  for (const c of COLLECTIONS) {
    const sample = samples[c];
    expect(DOC_SCHEMAS[c].safeParse(sample).success, c).toBe(true);
    const { _deleted: _d, ...doc } = sample;
    await db.collections[c]!.insert(doc);
    const stored = await db.collections[c]!.findOne(sample.id).exec();
    expect(stored?.toJSON(), c).toEqual(doc);
  }
});

test('a document the zod schema refuses is refused by RxDB too', async () => {
  const bad = { ...samples.test_summary, id: 'attempt-0002', status: 'DONE' };
  expect(DOC_SCHEMAS.test_summary.safeParse(bad).success).toBe(false);
  const { _deleted: _d, ...doc } = bad;
  await expect(db.collections.test_summary!.insert(doc)).rejects.toThrow();
  const extra = { ...samples.tag, id: 'x1', owner: 'someone' };
  expect(DOC_SCHEMAS.tag.safeParse(extra).success).toBe(false);
  const { _deleted: _e, ...doc2 } = extra;
  await expect(db.collections.tag!.insert(doc2)).rejects.toThrow();
});

test('question sets and their questions stored before `v` existed are migrated with v = 0 (and sets with free = false)', async () => {
  const name = `schema-migrate-${Date.now()}`;
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageMemory() });
  const v0 = (c: 'question_set' | 'qs_detail') => {
    const schema = rxSchemaOf(c);
    const { v: _v, free: _f, tags: _t, trans: _tr, ...properties } = schema.properties as typeof schema.properties & { free?: unknown; tags?: unknown; trans?: unknown };
    return { ...schema, version: 0, properties, required: schema.required.filter((k) => k !== 'v' && k !== 'free' && k !== 'tags' && k !== 'trans') } as unknown as RxJsonSchema<any>;
  };
  const old = await createRxDatabase({ name, storage });
  await old.addCollections({ question_set: { schema: v0('question_set') }, qs_detail: { schema: v0('qs_detail') } });
  const { _deleted: _a, v: _b, free: _f, tags: _t, trans: _tr, ...set } = samples.question_set;
  const { _deleted: _c, v: _d, ...detail } = samples.qs_detail;
  await old.question_set!.insert(set);
  await old.qs_detail!.insert(detail);
  await old.close();

  expect(SCHEMA_VERSIONS.question_set).toBe(4);
  expect(SCHEMA_VERSIONS.qs_detail).toBe(3);
  const now = await createRxDatabase({ name, storage });
  await now.addCollections({
    question_set: { schema: rxSchemaOf('question_set') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.question_set },
    qs_detail: { schema: rxSchemaOf('qs_detail') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.qs_detail },
  });
  expect((await now.question_set!.findOne(set.id).exec())?.toJSON()).toEqual({ ...set, v: 0, free: false, tags: { s: [], e: [], c: [] }, trans: {} });
  expect((await now.qs_detail!.findOne(detail.id).exec())?.toJSON()).toEqual({ ...detail, v: 0 });
  await now.remove();
});

test('results stored before `practice` existed are migrated with practice = false (and receipt = null)', async () => {
  const name = `schema-migrate-result-${Date.now()}`;
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageMemory() });
  const schema = rxSchemaOf('exam_result');
  const { practice: _p, receipt: _r, ...properties } = schema.properties;
  const v0 = { ...schema, version: 0, properties, required: schema.required.filter((k) => k !== 'practice' && k !== 'receipt') } as unknown as RxJsonSchema<any>;
  const old = await createRxDatabase({ name, storage });
  await old.addCollections({ exam_result: { schema: v0 } });
  const { _deleted: _d, practice: _q, receipt: _s, ...result } = samples.exam_result;
  await old.exam_result!.insert(result);
  await old.close();

  const now = await createRxDatabase({ name, storage });
  await now.addCollections({ exam_result: { schema: rxSchemaOf('exam_result') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.exam_result } });
  expect((await now.exam_result!.findOne(result.id).exec())?.toJSON()).toEqual({ ...result, practice: false, receipt: null });
  await now.remove();
});

test('results stored before `receipt` existed (version 1) are migrated to version 2 with receipt = null', async () => {
  const name = `schema-migrate-receipt-${Date.now()}`;
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageMemory() });
  const schema = rxSchemaOf('exam_result');
  const { receipt: _r, ...properties } = schema.properties;
  const v1 = { ...schema, version: 1, properties, required: schema.required.filter((k) => k !== 'receipt') } as unknown as RxJsonSchema<any>;
  const old = await createRxDatabase({ name, storage });
  await old.addCollections({ exam_result: { schema: v1, migrationStrategies: { 1: (doc: unknown) => doc } } });
  const { _deleted: _d, receipt: _s, ...result } = samples.exam_result;
  await old.exam_result!.insert({ ...result, practice: true });
  await old.close();

  expect(SCHEMA_VERSIONS.exam_result).toBe(3);
  const now = await createRxDatabase({ name, storage });
  await now.addCollections({ exam_result: { schema: rxSchemaOf('exam_result') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.exam_result } });
  expect((await now.exam_result!.findOne(result.id).exec())?.toJSON()).toEqual({ ...result, practice: true, receipt: null });
  await now.remove();
});

test('results and set details stored before explanations (exam_result 2, qs_detail 1) keep their documents; an editor bank copy (ed_question 0) gets no explanation', async () => {
  const name = `schema-migrate-expl-${Date.now()}`;
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageMemory() });
  // The schemas of before: no `expl` anywhere, no type `n`.
  const before = (c: 'exam_result' | 'qs_detail' | 'ed_question', version: number) => {
    const schema = rxSchemaOf(c);
    const strip = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(strip);
      if (!node || typeof node !== 'object') return node;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === 'expl') continue;
        if (k === 'enum' && Array.isArray(v)) out[k] = v.filter((x) => x !== 'n');
        else if (k === 'required' && Array.isArray(v)) out[k] = v.filter((x) => x !== 'expl');
        else out[k] = strip(v);
      }
      return out;
    };
    return { ...(strip(schema) as typeof schema), version } as unknown as RxJsonSchema<any>;
  };
  const keep = (d: unknown) => d;
  const old = await createRxDatabase({ name, storage });
  await old.addCollections({
    exam_result: { schema: before('exam_result', 2), migrationStrategies: { 1: keep, 2: keep } },
    qs_detail: { schema: before('qs_detail', 1), migrationStrategies: { 1: keep } },
    ed_question: { schema: before('ed_question', 0) },
  });
  const { _deleted: _a, ...result } = samples.exam_result;
  const { _deleted: _b, ...detail } = samples.qs_detail;
  const bank = {
    id: 'q-bank-1',
    q: '<p>2+2?</p>',
    ops: { a: '3', b: '4' },
    c: [],
    d: '1' as const,
    ca: ['b'],
    qt: 'mcq1' as const,
    s: null,
    t: [],
    e: [],
    st: 'PENDING' as const,
    reason: null,
    trans: {},
    version: 1,
    updatedAt: 5,
  };
  await old.exam_result!.insert(result);
  await old.qs_detail!.insert(detail);
  await old.ed_question!.insert(bank);
  await old.close();

  expect(SCHEMA_VERSIONS).toMatchObject({ exam_result: 3, qs_detail: 3, ed_question: 1 });
  const now = await createRxDatabase({ name, storage });
  await now.addCollections({
    exam_result: { schema: rxSchemaOf('exam_result') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.exam_result },
    qs_detail: { schema: rxSchemaOf('qs_detail') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.qs_detail },
    ed_question: { schema: rxSchemaOf('ed_question') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.ed_question },
  });
  expect((await now.exam_result!.findOne(result.id).exec())?.toJSON()).toEqual(result);
  expect((await now.qs_detail!.findOne(detail.id).exec())?.toJSON()).toEqual(detail);
  expect((await now.ed_question!.findOne(bank.id).exec())?.toJSON()).toEqual({ ...bank, expl: '' });
  // And what the server sends now: a numerical question with its explanation in two languages.
  const numerical = {
    ...result,
    id: 'result-2',
    questions: [{ id: 'qn', q: '<p>150 ÷ 2.5?</p>', ops: {}, qt: 'n', d: '3', ca: ['60:0.5'], expl: '<p>= 60</p>', trans: { hi: { q: '<p>150 ÷ 2.5?</p>', ops: {}, ca: ['60:0.5'], expl: '<p>= ६०</p>' } } }],
  };
  expect(DOC_SCHEMAS.exam_result.safeParse({ ...numerical, _deleted: false }).success).toBe(true);
  await now.exam_result!.insert(numerical);
  await now.remove();
});

test('question sets stored before `free` existed (version 1) are migrated to version 4 with free = false, no tags and no translations', async () => {
  const name = `schema-migrate-free-${Date.now()}`;
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageMemory() });
  const schema = rxSchemaOf('question_set');
  const { free: _f, tags: _t, trans: _tr, ...properties } = schema.properties as typeof schema.properties & { free?: unknown; tags?: unknown; trans?: unknown };
  const v1 = { ...schema, version: 1, properties, required: schema.required.filter((k) => k !== 'free' && k !== 'tags' && k !== 'trans') } as unknown as RxJsonSchema<any>;
  const old = await createRxDatabase({ name, storage });
  await old.addCollections({ question_set: { schema: v1, migrationStrategies: { 1: (doc: unknown) => doc } } });
  const { _deleted: _d, free: _g, tags: _u, trans: _w, ...set } = samples.question_set;
  await old.question_set!.insert(set);
  await old.close();

  const now = await createRxDatabase({ name, storage });
  await now.addCollections({ question_set: { schema: rxSchemaOf('question_set') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.question_set } });
  expect((await now.question_set!.findOne(set.id).exec())?.toJSON()).toEqual({ ...set, free: false, tags: { s: [], e: [], c: [] }, trans: {} });
  await now.remove();
});

test('question sets stored before `trans` existed (version 3) are migrated to version 4 with no translations (English shows)', async () => {
  const name = `schema-migrate-trans-${Date.now()}`;
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageMemory() });
  const schema = rxSchemaOf('question_set');
  const { trans: _tr, ...properties } = schema.properties as typeof schema.properties & { trans?: unknown };
  const v3 = { ...schema, version: 3, properties, required: schema.required.filter((k) => k !== 'trans') } as unknown as RxJsonSchema<any>;
  const old = await createRxDatabase({ name, storage });
  const keep = { 1: (doc: unknown) => doc, 2: (doc: unknown) => doc, 3: (doc: unknown) => doc };
  await old.addCollections({ question_set: { schema: v3, migrationStrategies: keep } });
  const { _deleted: _d, trans: _w, sections: _s, ...rest } = samples.question_set;
  const set = { ...rest, sections: { Reasoning: { ss: false, n: 8, mpq: 2, tm: 16, nm: 0.5, o: 1 } } };
  await old.question_set!.insert(set);
  await old.close();

  const now = await createRxDatabase({ name, storage });
  await now.addCollections({ question_set: { schema: rxSchemaOf('question_set') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.question_set } });
  expect((await now.question_set!.findOne(set.id).exec())?.toJSON()).toEqual({ ...set, trans: {} });
  await now.remove();
});

test('an entitlement document with unlimited and exhausted allowances passes both schemas; a negative count does not', async () => {
  const unlimited = { ...samples.entitlement, mock: { limit: null, used: 40 }, practice: { limit: 2, used: 3 } };
  expect(DOC_SCHEMAS.entitlement.safeParse(unlimited).success).toBe(true);
  const none = { ...samples.entitlement, id: 'no-plan', planCode: null, planName: null, startsAt: null, endsAt: null, mock: { limit: 0, used: 0 }, practice: { limit: 0, used: 0 }, counted: [] };
  expect(DOC_SCHEMAS.entitlement.safeParse(none).success).toBe(true);
  const { _deleted: _d, ...doc } = none;
  await db.collections.entitlement!.insert(doc);
  expect((await db.collections.entitlement!.findOne('no-plan').exec())?.toJSON()).toEqual(doc);
  const bad = { ...samples.entitlement, id: 'bad', mock: { limit: 10, used: -1 } };
  expect(DOC_SCHEMAS.entitlement.safeParse(bad).success).toBe(false);
  const { _deleted: _e, ...badDoc } = bad;
  await expect(db.collections.entitlement!.insert(badDoc)).rejects.toThrow();
});

test('a live test\'s qs_detail (its sealed paper, docs/live-tests.md) is accepted by both schemas', async () => {
  const sealed = { iv: 'AAECAwQFBgcICQoL', ct: 'c2VhbGVkIHBhcGVy' };
  const sample = { ...samples.qs_detail, id: 'qs-live', questions: [], live: { start: 1_795_000_000_000, win: 900_000, res: 1_795_010_000_000, wk: sealed, paper: sealed } };
  expect(DOC_SCHEMAS.qs_detail.safeParse(sample).success).toBe(true);
  const { _deleted: _d, ...doc } = sample;
  await db.collections.qs_detail!.insert(doc);
  expect((await db.collections.qs_detail!.findOne('qs-live').exec())?.toJSON()).toEqual(doc);
});

test('a score distribution held as two lists per histogram (version 0) is migrated to the compact form and ranks as before', async () => {
  const name = `schema-migrate-dist-${Date.now()}`;
  const storage = wrappedValidateAjvStorage({ storage: getRxStorageMemory() });
  const v0 = { ...rxSchemaOf('score_dist'), version: 0, properties: { ...rxSchemaOf('score_dist').properties, ...z.toJSONSchema(scoreDistListsDocSchema.pick({ t: true, s: true })).properties } } as unknown as RxJsonSchema<any>;
  const old = await createRxDatabase({ name, storage });
  await old.addCollections({ score_dist: { schema: v0 } });
  const { _deleted: _d, ...compact } = samples.score_dist;
  const lists = { ...compact, t: TOTALS, s: { Reasoning: REASONING } };
  expect(scoreDistListsDocSchema.safeParse({ ...lists, _deleted: false }).success).toBe(true);
  await old.score_dist!.insert(lists);
  await old.close();

  expect(SCHEMA_VERSIONS.score_dist).toBe(1);
  const now = await createRxDatabase({ name, storage });
  await now.addCollections({ score_dist: { schema: rxSchemaOf('score_dist') as unknown as RxJsonSchema<any>, migrationStrategies: MIGRATIONS.score_dist } });
  const migrated = (await now.score_dist!.findOne(compact.id).exec())!.toJSON() as typeof compact;
  expect(migrated).toEqual(compact);
  expect(decodeHistogram(migrated.s.Reasoning!)).toEqual(REASONING);
  for (const marks of [-2, -1.5, 0, 1, 4, 7.25, 8]) expect(rankIn(migrated.t, marks, false)).toEqual(rankIn(TOTALS, marks, false));
  await now.remove();
});
