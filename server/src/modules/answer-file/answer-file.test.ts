import { statSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ANSWER_FILE_MSG, type AnswerFilePayload, type AnswerKeyResponse, MAX_ANSWER_FILE_CHARS } from '@pm/protocol/answer-file';
import { sealAnswerFile } from '@pm/protocol/answer-file-seal';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import { PROTOCOL_VERSION } from '@pm/protocol/version';
import { attempt, examResult } from '../../db/schema';
import { first } from '../../db/transaction';
import { JWT_AUDIENCE, JWT_ISSUER, signToken } from '../../lib/jwt';
import { sessionToken, startSession } from '../../lib/sessions';
import { type Harness, startHarness } from '../../test/harness';
import { openAnswerFile } from './answer-file.service';
import { ANSWER_KEY_FILE, ensureAnswerKey, loadAnswerKey } from './answer-key';

let h: Harness;
let learnerToken: string;
let editorToken: string;
let key: AnswerKeyResponse;
beforeAll(async () => {
  h = await startHarness();
  [learnerToken, editorToken] = await Promise.all([h.tokenOf('learner'), h.tokenOf('editor')]);
  const r = await h.request('GET', '/answer-file/key');
  expect(r.status).toBe(200);
  key = r.body as AnswerKeyResponse;
});
afterAll(() => h.destroy());

let seq = 0;
/** A submitted attempt at the free practice set: q-gk-001 right (b), q-gk-003 wrong. */
function submitted(over: Partial<TestSummaryDoc> = {}): TestSummaryDoc {
  seq++;
  const now = Date.now();
  return {
    id: `answerfile-${seq.toString().padStart(4, '0')}-${now.toString(36)}`,
    qsid: 'qs-practice-gk',
    st: now - 10 * 60_000,
    sfs: 0,
    lsq: 'q-gk-003',
    index: 1,
    selectedSection: null,
    answers: { 'q-gk-001': { ua: 'b', status: 'ANSWERED', t: 4000 }, 'q-gk-003': { ua: 'a', status: 'ANSWERED', t: 3000 } },
    status: 'SUBMITTED',
    submittedAt: now - 60_000,
    elapsed: 9 * 60_000,
    updatedAt: now - 60_000,
    _deleted: false,
    ...over,
  };
}

const payloadOf = (attempts: TestSummaryDoc[], token = learnerToken): AnswerFilePayload => ({ v: 1, token, createdAt: Date.now(), attempts });
const upload = (file: string) => h.request('POST', '/answer-file', { body: { file } });
const push = (token: string, rows: unknown) => h.request('POST', '/sync/v1/test_summary/push', { token, headers: { 'x-sync-protocol': PROTOCOL_VERSION }, body: rows });
const resultsOf = async (attemptId: string) => await h.deps.db.select().from(examResult).where(eq(examResult.attemptId, attemptId));
const attemptRow = (id: string) => first(h.deps.db.select().from(attempt).where(eq(attempt.id, id)));

/** The file with one bit of byte `i` flipped, as text (a byte that stops being ASCII stays a byte of the text). */
function flipped(file: string, i: number, bit: number): string {
  const bytes = Buffer.from(file, 'latin1');
  bytes[i] = bytes[i]! ^ (1 << bit);
  return bytes.toString('latin1');
}

describe('the key', () => {
  test('is generated into DATA_DIR on the first start (mode 600), published as a P-256 JWK with its thumbprint, and kept', async () => {
    const file = path.join(h.dataDir, ANSWER_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(key).toEqual({ success: true, kid: expect.any(String), alg: 'ECDH-ES', enc: 'A256GCM', jwk: { kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String) } });
    expect(key.kid).toBe(await calculateJwkThumbprint(key.jwk, 'sha256'));
    // A second start on the same DATA_DIR reads the same key.
    const again = await loadAnswerKey(ensureAnswerKey(h.deps.config));
    expect(again.kid).toBe(key.kid);
    // Never the private part.
    expect(JSON.stringify(key)).not.toContain('"d"');
  });

  test('can come from ANSWER_FILE_PRIVATE_JWK instead', async () => {
    const { privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const jwk = await exportJWK(privateKey);
    const loaded = await loadAnswerKey(ensureAnswerKey({ dataDir: '/nonexistent', ANSWER_FILE_PRIVATE_JWK: JSON.stringify(jwk) }));
    expect(loaded.jwk).toEqual({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y });
    expect(() => ensureAnswerKey({ dataDir: '/nonexistent', ANSWER_FILE_PRIVATE_JWK: JSON.stringify({ ...jwk, d: 'AAAA' }) })).toThrow(/not a valid P-256 private key/);
  });
});

describe('upload', () => {
  test('a file made with WebCrypto is stored and scored once, without a login; twice is counted once', async () => {
    const doc = submitted();
    const file = await sealAnswerFile(payloadOf([doc]), key);
    expect(file).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    // Nothing readable in it: neither the answers nor the token.
    expect(file).not.toContain(doc.id);

    const first = await upload(file);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, attempts: [{ id: doc.id, qsid: 'qs-practice-gk', outcome: 'stored', scored: true }] });
    const row = (await attemptRow(doc.id))!;
    expect(row).toMatchObject({ personId: 'demo-learner', status: 'SUBMITTED', answers: doc.answers });
    expect(await resultsOf(doc.id)).toEqual([expect.objectContaining({ personId: 'demo-learner', qsid: 'qs-practice-gk' })]);

    const second = await upload(file);
    expect(second.status).toBe(200);
    expect(second.body.attempts).toEqual([{ id: doc.id, qsid: 'qs-practice-gk', outcome: 'already', scored: true }]);
    expect(await resultsOf(doc.id)).toHaveLength(1);
    expect((await attemptRow(doc.id))!.rev).toBe(row.rev);

    // The learner's own device pushes the same attempt afterwards (it never saw the server's copy).
    const pushed = await push(learnerToken, [{ newDocumentState: doc, assumedMasterState: null }]);
    expect(pushed.status).toBe(200);
    // The same document as the server's: nothing to store, no conflict to report.
    expect(pushed.body).toEqual([]);
    expect(await resultsOf(doc.id)).toHaveLength(1);
    expect((await attemptRow(doc.id))!.rev).toBe(row.rev);
    // And the learner's replica pulls the result like any other.
    const pulled = await h.request('GET', '/sync/v1/exam_result/pull?rev=0&limit=200', { token: learnerToken, headers: { 'x-sync-protocol': PROTOCOL_VERSION } });
    expect((pulled.body.documents as { attemptId: string }[]).filter((d) => d.attemptId === doc.id)).toHaveLength(1);
  });

  test('an attempt pushed by replication first is reported as already received, and counted once', async () => {
    const doc = submitted();
    expect((await push(learnerToken, [{ newDocumentState: doc, assumedMasterState: null }])).status).toBe(200);
    expect(await resultsOf(doc.id)).toHaveLength(1);
    const r = await upload(await sealAnswerFile(payloadOf([doc]), key));
    expect(r.status).toBe(200);
    expect(r.body.attempts).toEqual([{ id: doc.id, qsid: 'qs-practice-gk', outcome: 'already', scored: true }]);
    expect(await resultsOf(doc.id)).toHaveLength(1);
  });

  test('an attempt the server holds in progress (the device pushed part of it) is completed by the file and scored once', async () => {
    const doc = submitted();
    const partial = { ...doc, status: 'IN_PROGRESS' as const, submittedAt: null, answers: { 'q-gk-001': doc.answers['q-gk-001']! }, updatedAt: doc.updatedAt - 30_000 };
    expect((await push(learnerToken, [{ newDocumentState: partial, assumedMasterState: null }])).status).toBe(200);
    const r = await upload(await sealAnswerFile(payloadOf([doc]), key));
    expect(r.body.attempts).toEqual([{ id: doc.id, qsid: 'qs-practice-gk', outcome: 'stored', scored: true }]);
    expect(await attemptRow(doc.id)).toMatchObject({ status: 'SUBMITTED', answers: doc.answers });
    expect(await resultsOf(doc.id)).toHaveLength(1);
    // The device's later push, from its in-progress state, changes nothing.
    const rev = (await attemptRow(doc.id))!.rev;
    const late = await push(learnerToken, [{ newDocumentState: doc, assumedMasterState: partial }]);
    expect(late.status).toBe(200);
    expect(await resultsOf(doc.id)).toHaveLength(1);
    expect((await attemptRow(doc.id))!.rev).toBe(rev);
    // Had the device changed something after exporting, its push is answered with the server's copy.
    const changed = await push(learnerToken, [{ newDocumentState: { ...doc, answers: {} }, assumedMasterState: partial }]);
    expect(changed.body).toEqual([expect.objectContaining({ id: doc.id, status: 'SUBMITTED', answers: doc.answers })]);
    expect(await resultsOf(doc.id)).toHaveLength(1);
  });

  test('the file and a push arriving together store and score the attempt once', async () => {
    const doc = submitted();
    const file = await sealAnswerFile(payloadOf([doc]), key);
    const [a, b, c] = await Promise.all([upload(file), push(learnerToken, [{ newDocumentState: doc, assumedMasterState: null }]), upload(file)]);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(await resultsOf(doc.id)).toHaveLength(1);
    expect([a, c].filter((r) => r.body.attempts[0].outcome === 'stored').length).toBeLessThanOrEqual(1);
  });

  test('an expired token is accepted (the file is uploaded days later); one expired for longer than a session lives is not', async () => {
    const day = 86_400_000;
    const now = Date.now();
    // A session last seen 40 days ago, which ended by plain expiry 10 days ago; the attempt was
    // submitted the day before it ended (tests/security/revocation.test.ts has the refusals).
    const ended = await startSession(h.deps.db, 'demo-learner', now - 40 * day);
    const expired = await sessionToken(h.deps.config.jwtSecret, { id: 'demo-learner', tokenVersion: 0 }, ended, now - 40 * day);
    const doc = submitted({ st: now - 11 * day - 600_000, submittedAt: now - 11 * day, updatedAt: now - 11 * day });
    const ok = await upload(await sealAnswerFile(payloadOf([doc], expired), key));
    expect(ok.status).toBe(200);
    expect(await resultsOf(doc.id)).toHaveLength(1);

    const ancient = await signToken(h.deps.config.jwtSecret, { sub: 'demo-learner', tv: 0, sid: 'gone-session' }, { issuedAt: now - 400 * day, expiresAt: now - 370 * day });
    const old = submitted();
    const r = await upload(await sealAnswerFile(payloadOf([old], ancient), key));
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ success: false, code: 'FORBIDDEN', msg: ANSWER_FILE_MSG.tokenTooOld });
    expect(await attemptRow(old.id)).toBeUndefined();
  });
});

describe('refused, with nothing written', () => {
  test('a tampered file: every byte changed in one bit is refused, over HTTP with a clear 400', async () => {
    const doc = submitted();
    const file = await sealAnswerFile(payloadOf([doc]), key);
    const server = await loadAnswerKey(ensureAnswerKey(h.deps.config));
    // Every byte, one bit each (the bit moves along), and all eight bits of the first and last bytes.
    const flips: [number, number][] = [...Array.from({ length: file.length }, (_, i) => [i, i % 8] as [number, number])];
    for (let bit = 0; bit < 8; bit++) flips.push([0, bit], [file.length - 1, bit]);
    let refused = 0;
    for (const [i, bit] of flips) {
      const bad = flipped(file, i, bit);
      await expect(openAnswerFile(server, bad), `byte ${i} bit ${bit}`).rejects.toMatchObject({ status: 400 });
      refused++;
    }
    expect(refused).toBe(flips.length);

    // Through the endpoint: a flip in the ciphertext, in the header, in the last character.
    for (const i of [Math.floor(file.length / 2), 5, file.length - 1]) {
      const r = await upload(flipped(file, i, 0));
      expect(r.status).toBe(400);
      expect(Object.values(ANSWER_FILE_MSG)).toContain(r.body.msg);
      expect(r.body.msg).not.toMatch(/stack|Error:/);
    }
    expect(await attemptRow(doc.id)).toBeUndefined();
    expect(await resultsOf(doc.id)).toHaveLength(0);
    // The untouched file still goes in.
    expect((await upload(file)).body.attempts[0].outcome).toBe('stored');
  });

  test('a file made for another server key is refused by name', async () => {
    const { publicKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const jwk = await exportJWK(publicKey);
    const other = { kid: await calculateJwkThumbprint(jwk, 'sha256'), jwk: { kty: 'EC' as const, crv: 'P-256' as const, x: jwk.x!, y: jwk.y! } };
    const doc = submitted();
    const r = await upload(await sealAnswerFile(payloadOf([doc]), other));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, code: 'BAD_REQUEST', msg: ANSWER_FILE_MSG.otherServer });
    // Claiming our key's id does not help: the agreement with our key fails.
    const forged = await upload(await sealAnswerFile(payloadOf([doc]), { ...other, kid: key.kid }));
    expect(forged.body.msg).toBe(ANSWER_FILE_MSG.damaged);
    expect(await attemptRow(doc.id)).toBeUndefined();
  });

  test('a token with a bad signature, no signature or of another issuer is refused', async () => {
    const doc = submitted();
    const now = Math.floor(Date.now() / 1000);
    const claims = { tv: 0, sid: 'some-session' };
    const otherSecret = new TextEncoder().encode('another-secret-that-is-long-enough-1234567890');
    const badSig = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject('demo-learner').setIssuer(JWT_ISSUER).setAudience(JWT_AUDIENCE).setIssuedAt(now).setExpirationTime(now + 3600).sign(otherSecret);
    const [head, body] = learnerToken.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`;
    // The learner's real token with its subject changed to the editor: the signature no longer matches.
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const swapped = `${head}.${Buffer.from(JSON.stringify({ ...payload, sub: 'demo-editor' })).toString('base64url')}.${learnerToken.split('.')[2]}`;
    const wrongIssuer = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('demo-learner')
      .setIssuer('someone-else')
      .setAudience(JWT_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + 3600)
      .sign(h.deps.config.jwtSecret);
    for (const token of [badSig, none, swapped, wrongIssuer, 'not-a-jwt']) {
      const r = await upload(await sealAnswerFile(payloadOf([doc], token), key));
      expect(r.status, token).toBe(403);
      expect(r.body).toEqual({ success: false, code: 'FORBIDDEN', msg: ANSWER_FILE_MSG.badToken });
    }
    expect(await attemptRow(doc.id)).toBeUndefined();
  });

  test("another person's attempt, an attempt not submitted, an unknown set, a malformed or oversized body", async () => {
    const mine = submitted();
    await upload(await sealAnswerFile(payloadOf([mine]), key));
    const before = (await attemptRow(mine.id))!;
    // The editor's token with the learner's attempt: refused, the learner's attempt unchanged.
    const theirs = await upload(await sealAnswerFile(payloadOf([{ ...mine, answers: {} }], editorToken), key));
    expect(theirs.status).toBe(403);
    expect(theirs.body.msg).toBe(ANSWER_FILE_MSG.otherPerson);
    expect(await attemptRow(mine.id)).toEqual(before);

    const open = submitted({ status: 'IN_PROGRESS', submittedAt: null });
    const r1 = await upload(await sealAnswerFile(payloadOf([open]), key));
    expect(r1.status).toBe(400);
    expect(r1.body.msg).toBe(ANSWER_FILE_MSG.notSubmitted);

    const nowhere = submitted({ qsid: 'qs-does-not-exist' });
    const r2 = await upload(await sealAnswerFile(payloadOf([nowhere]), key));
    expect(r2.status).toBe(400);
    expect(r2.body.msg).toBe(ANSWER_FILE_MSG.unknownSet);
    // The future mock is not published yet.
    const future = submitted({ qsid: 'qs-future-mock', answers: {} });
    expect((await upload(await sealAnswerFile(payloadOf([future]), key))).body.msg).toBe(ANSWER_FILE_MSG.unknownSet);

    for (const body of [{}, { file: 'hello' }, { file: 'a..b.c.d', extra: 1 }, { file: 42 }]) {
      const r = await h.request('POST', '/answer-file', { body });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ success: false, code: 'BAD_REQUEST', msg: expect.any(String) });
    }
    const big = await h.request('POST', '/answer-file', { body: { file: `${'A'.repeat(MAX_ANSWER_FILE_CHARS)}..A.A.A` } });
    expect([400, 413]).toContain(big.status);
    for (const id of [open.id, nowhere.id, future.id]) expect(await attemptRow(id)).toBeUndefined();
  });
});

describe('rate limit', () => {
  test('uploads are limited per address (an exam centre uploads from one): past the budget a 429, nothing read', async () => {
    const doc = submitted();
    const file = await sealAnswerFile(payloadOf([doc]), key);
    // The rest of this address's hour spent (the tests above used some of it), as many uploads would.
    for (;;) {
      try {
        await h.deps.rates.consume('answerFileIp', 'local');
      } catch {
        break;
      }
    }
    const r = await upload(file);
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(await attemptRow(doc.id)).toBeUndefined();
  });
});
