import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  BUNDLE_HEADER_BYTES,
  BUNDLE_TTL_MS,
  type BundleKey,
  BundleError,
  type BundlePayload,
  bundleKeyId,
  type BundleKeysResponse,
  gunzip,
  openBundle,
  sealBundle,
} from '@pm/protocol/bundle';
import type { QsDetailDoc, TestQuestion } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import { type Harness, startHarness } from '../../test/harness';
import { BUNDLE_KEY_FILE, ensureBundleKey, loadBundleKeys, previousBundleJwks } from './bundle-key';

/** A key pair as the server holds one: its id, the private key, the public key as devices hold it. */
async function keyPair(): Promise<{ signer: { kid: string; privateKey: webcrypto.CryptoKey }; key: BundleKey }> {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const { x, y } = await webcrypto.subtle.exportKey('jwk', pair.publicKey);
  const jwk = { kty: 'EC' as const, crv: 'P-256' as const, x: x!, y: y! };
  const kid = await bundleKeyId(jwk);
  return { signer: { kid, privateKey: pair.privateKey }, key: { kid, jwk } };
}

const EN = 'the of which river state capital year formed following flows through city number listed national park dam built valley mountain range north south east west largest smallest first oldest temple festival dance language spoken census district plateau coast island lake delta forest tribe crop grown rice wheat cotton tea coffee sugarcane mineral coal iron copper gold port railway zone treaty battle empire king dynasty ruler founded century poet author wrote book award prize sport trophy player team cup olympic medal scientist invented discovered element atom cell organ blood vitamin disease vaccine planet orbit satellite launched mission space agency bank currency budget tax article constitution amendment parliament president governor court judge election commission committee report scheme policy act law right duty'.split(' ');
const HI = 'निम्नलिखित में से कौन नदी राज्य राजधानी वर्ष बना बहती शहर संख्या सूची राष्ट्रीय उद्यान बांध घाटी पर्वत श्रृंखला उत्तर दक्षिण पूर्व पश्चिम सबसे बड़ा छोटा पहला पुराना मंदिर त्योहार नृत्य भाषा बोली जनगणना जिला पठार तट द्वीप झील डेल्टा वन जनजाति फसल चावल गेहूं कपास चाय कॉफी गन्ना खनिज कोयला लोहा तांबा सोना बंदरगाह रेलवे क्षेत्र संधि युद्ध साम्राज्य राजा वंश शासक स्थापित शताब्दी कवि लेखक लिखा पुस्तक पुरस्कार खेल ट्रॉफी खिलाड़ी टीम कप ओलंपिक पदक वैज्ञानिक आविष्कार खोज तत्व परमाणु कोशिका अंग रक्त विटामिन रोग टीका ग्रह कक्षा उपग्रह प्रक्षेपित मिशन अंतरिक्ष एजेंसी बैंक मुद्रा बजट कर अनुच्छेद संविधान संशोधन संसद राष्ट्रपति राज्यपाल न्यायालय न्यायाधीश चुनाव आयोग समिति रिपोर्ट योजना नीति अधिनियम अधिकार कर्तव्य'.split(' ');

/** Words drawn from a vocabulary by a fixed sequence: text that compresses as real questions do, not as a repeated template. */
function words(vocabulary: string[], seed: number, count: number): string {
  let x = seed * 2654435761;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(vocabulary[x % vocabulary.length]!);
  }
  return out.join(' ');
}

/** A question of about the length of an SSC general-awareness question (30 words, options of 3), in English and Hindi. */
function question(i: number): TestQuestion {
  const ops = (vocabulary: string[], base: number) => Object.fromEntries(['a', 'b', 'c', 'd'].map((k, j) => [k, `<p>${words(vocabulary, base + j, 3)}</p>`]));
  return {
    id: `q-bundle-${i.toString().padStart(4, '0')}`,
    q: `<p>${words(EN, i, 30)}?</p>`,
    ops: ops(EN, 1000 + i * 4),
    qt: 'mcq1',
    d: '3',
    trans: { hi: { q: `<p>${words(HI, 5000 + i, 30)}?</p>`, ops: ops(HI, 9000 + i * 4) } },
  };
}

function payloadOf(n: number, now = Date.now()): BundlePayload {
  const questions = Array.from({ length: n }, (_, i) => question(i + 1));
  const ids = questions.map((q) => q.id);
  const set: QuestionSetDoc = {
    id: 'qs-bundle',
    l: 'A hundred questions',
    mpq: 2,
    tm: 2 * n,
    nm: 0.5,
    dur: 60,
    isM: true,
    free: true,
    inst: '<p>Answer every question.</p>',
    pts: 29_000_000,
    n,
    sections: {},
    trans: { hi: { l: 'सौ प्रश्न', inst: '<p>हर प्रश्न का उत्तर दें।</p>' } },
    total: 2 * n,
    count: n,
    updatedAt: now,
    v: 1,
    tags: { s: [], e: [], c: [] },
    _deleted: false,
  };
  const detail: QsDetailDoc = { id: 'qs-bundle', isM: true, main: { q: ids, mpq: 2, tm: 2 * n, nm: 0.5, o: 0 }, sections: {}, questions, v: 1, _deleted: false };
  return { v: 1, iat: now, exp: now + BUNDLE_TTL_MS, set, detail, media: {} };
}

describe('the bundle format', () => {
  test('a sealed bundle opens with the key that signed it, as it was sealed', async () => {
    const { signer, key } = await keyPair();
    const payload = payloadOf(3);
    const file = await sealBundle(payload, signer);
    expect(await openBundle(file, [key], Date.now())).toEqual(payload);
  });

  test('a changed byte anywhere is refused: header, signature or payload', async () => {
    const { signer, key } = await keyPair();
    const file = await sealBundle(payloadOf(3), signer);
    for (const at of [20, 50, 83, BUNDLE_HEADER_BYTES, Math.floor((file.length + BUNDLE_HEADER_BYTES) / 2), file.length - 1]) {
      const tampered = file.slice();
      tampered[at]! ^= 0x01;
      await expect(openBundle(tampered, [key], Date.now()), `byte ${at}`).rejects.toEqual(new BundleError('tampered'));
    }
    // A changed key id names a key the device does not hold.
    const renamed = file.slice();
    renamed[4]! ^= 0x01;
    await expect(openBundle(renamed, [key], Date.now())).rejects.toEqual(new BundleError('otherKey'));
  });

  test('an expired bundle is refused, a day before its expiry it is not', async () => {
    const { signer, key } = await keyPair();
    const now = Date.now();
    const file = await sealBundle(payloadOf(1, now), signer);
    await expect(openBundle(file, [key], now + BUNDLE_TTL_MS - 86_400_000)).resolves.toBeTruthy();
    await expect(openBundle(file, [key], now + BUNDLE_TTL_MS)).rejects.toEqual(new BundleError('expired'));
  });

  test('a bundle signed by another key is refused, also when a key list names the other key by its id', async () => {
    const ours = await keyPair();
    const theirs = await keyPair();
    const file = await sealBundle(payloadOf(1), theirs.signer);
    await expect(openBundle(file, [ours.key], Date.now())).rejects.toEqual(new BundleError('otherKey'));
    // Our public key listed under their id: the id is the key's own hash, so it does not pass.
    await expect(openBundle(file, [{ kid: theirs.key.kid, jwk: ours.key.jwk }], Date.now())).rejects.toEqual(new BundleError('otherKey'));
    // With no keys on the device at all, it says so.
    await expect(openBundle(file, [], Date.now())).rejects.toEqual(new BundleError('noKeys'));
    // After a rotation the device holds both: the earlier key's bundle still opens.
    await expect(openBundle(file, [ours.key, theirs.key], Date.now())).resolves.toBeTruthy();
  });

  test('a file that is not a bundle is refused as such', async () => {
    const { key } = await keyPair();
    await expect(openBundle(new TextEncoder().encode('<html>not a test</html>'.repeat(10)), [key], Date.now())).rejects.toEqual(new BundleError('notBundle'));
  });

  test('a signed payload that breaks the schema is refused', async () => {
    const { signer } = await keyPair();
    const bad = { ...payloadOf(1), extra: true } as BundlePayload;
    await expect(sealBundle(bad, signer)).rejects.toThrow();
  });

  test('a 100-question set in English and Hindi without images is under 100 KB', async () => {
    const { signer, key } = await keyPair();
    const payload = payloadOf(100);
    const file = await sealBundle(payload, signer);
    const json = await gunzip(file.slice(BUNDLE_HEADER_BYTES));
    // The figures docs/live-tests.md "Size" gives: ~15 KB signed and compressed, ~118 KB of JSON.
    expect(json.length).toBeGreaterThan(100 * 1024);
    expect(file.length).toBeLessThan(100 * 1024);
    expect(await openBundle(file, [key], Date.now())).toEqual(payload);
  });
});

describe('the signing key', () => {
  test('is generated once into DATA_DIR (mode 600) and read back the same', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pm-bundle-'));
    const a = await loadBundleKeys({ dataDir });
    const b = await loadBundleKeys({ dataDir });
    expect(a.keys).toEqual(b.keys);
    expect(statSync(path.join(dataDir, BUNDLE_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  test('can come from the environment, with earlier public keys still accepted', async () => {
    const jwk = ensureBundleKey({ dataDir: mkdtempSync(path.join(tmpdir(), 'pm-bundle-')) });
    const earlier = await keyPair();
    const loaded = await loadBundleKeys({ dataDir: '/nonexistent', BUNDLE_SIGNING_PRIVATE_JWK: JSON.stringify(jwk), BUNDLE_PREVIOUS_PUBLIC_JWKS: JSON.stringify([earlier.key.jwk]) });
    expect(loaded.keys.map((k) => k.kid)).toEqual([loaded.signer.kid, earlier.key.kid]);
    expect(() => ensureBundleKey({ dataDir: '/nonexistent', BUNDLE_SIGNING_PRIVATE_JWK: JSON.stringify({ ...jwk, d: 'AAAA' }) })).toThrow(/not a valid P-256 private key/);
    expect(() => previousBundleJwks(JSON.stringify([jwk]))).toThrow(/not a public P-256 JWK/);
  });
});

describe('GET /bundle/v1/sets/:id', () => {
  let h: Harness;
  let learner: string;
  let keys: BundleKey[];
  beforeAll(async () => {
    h = await startHarness();
    learner = await h.tokenOf('learner');
    const r = await h.request('GET', '/bundle/v1/keys');
    expect(r.status).toBe(200);
    keys = (r.body as BundleKeysResponse).keys;
  });
  afterAll(() => h.destroy());

  async function bundleOf(id: string, token?: string) {
    const res = await h.app.request(`/api/bundle/v1/sets/${id}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
  }

  test("a free mock's bundle opens with the published keys and carries no answer nor explanation", async () => {
    const { res, bytes } = await bundleOf('qs-mock-ssc-1', learner);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="qs-mock-ssc-1.pmtest"');
    const payload = await openBundle(bytes, keys, Date.now());
    expect(payload.set.id).toBe('qs-mock-ssc-1');
    expect(payload.detail.questions.length).toBeGreaterThan(0);
    expect(payload.exp - payload.iat).toBe(BUNDLE_TTL_MS);
    const text = JSON.stringify(payload.detail);
    expect(text).not.toMatch(/"ca"|"expl"/);
  });

  test("a practice set's bundle carries no answers either, though the learner's replica holds them", async () => {
    const { bytes } = await bundleOf('qs-practice-gk', learner);
    const payload = await openBundle(bytes, keys, Date.now());
    expect(JSON.stringify(payload.detail)).not.toMatch(/"ca"|"expl"/);
    // The questions are those the replication sends the learner.
    const pulled = await h.request('GET', '/sync/v1/qs_detail/pull?rev=0&limit=200', { token: learner, headers: { 'x-sync-protocol': (await import('@pm/protocol/version')).PROTOCOL_VERSION } });
    const replicated = (pulled.body.documents as QsDetailDoc[]).find((d) => d.id === 'qs-practice-gk')!;
    expect(payload.detail.questions.map((q) => q.id)).toEqual(replicated.questions.map((q) => q.id));
  });

  test('a set the caller may not take is refused: not signed in, not published, paid without a plan', async () => {
    expect((await bundleOf('qs-mock-ssc-1')).res.status).toBe(401);
    const future = await bundleOf('qs-future-mock', learner);
    expect(future.res.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(future.bytes)).msg).toBe('Question set not found');
    expect((await bundleOf('no-such-set', learner)).res.status).toBe(404);
    // A learner of their own: the demo learner holds a plan.
    const m = '9123459999';
    const signup = await h.request('POST', '/UserLogin', { body: { n: 'Bundle Learner', m, password: 'plan-tester-2468', confirmPassword: 'plan-tester-2468', p: 'demo-learner', terms: true } });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    const paid = await bundleOf('qs-hindi-sub', signup.body.token as string);
    expect(paid.res.status).toBe(402);
    expect(JSON.parse(new TextDecoder().decode(paid.bytes)).msg).toBe('This test needs a plan. Buy a plan to take it.');
    // The demo learner's plan lets them download it: they may hand it on.
    expect((await bundleOf('qs-hindi-sub', learner)).res.status).toBe(200);
  });

  test('unknown query fields are refused', async () => {
    const r = await h.request('GET', '/bundle/v1/sets/qs-mock-ssc-1?x=1', { token: learner });
    expect(r.status).toBe(400);
  });
});
