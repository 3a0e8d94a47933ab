import { inArray } from 'drizzle-orm';
import { compactDecrypt, decodeProtectedHeader } from 'jose';
import {
  ANSWER_FILE_ALG,
  ANSWER_FILE_ENC,
  ANSWER_FILE_MSG,
  ANSWER_FILE_TYP,
  type AnswerFilePayload,
  answerFilePayloadSchema,
  type AnswerFileUploadResponse,
} from '@pm/protocol/answer-file';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import type { Deps, Principal } from '../../context';
import { attempt, examResult, questionSet } from '../../db/schema';
import { badRequest, conflict, forbidden } from '../../lib/errors';
import { parseWith } from '../../lib/http';
import { type TokenRefusal, tokenOwner } from '../../lib/sessions';
import { testSummaryDoc } from '../sync/sync.docs';
import { pushTestSummaries } from '../sync/sync.service';
import type { AnswerKey } from './answer-key';

/**
 * Base64url exactly as an encoder writes it. Decoders ignore the spare low bits of the last
 * character, so without this check a flipped bit there would go unnoticed (docs/answer-file.md: any
 * changed bit refuses the file).
 */
const canonical = (part: string) => Buffer.from(part, 'base64url').toString('base64url') === part;

/**
 * Decrypts and checks an answer file (sync-protocol/src/answer-file.ts describes the format):
 * the form, the key it was made for, then the authenticated decryption, then the payload's
 * schema. Any failure is a 400 with a message saying which, and nothing else happens.
 */
export async function openAnswerFile(key: AnswerKey, file: string): Promise<AnswerFilePayload> {
  const parts = file.split('.');
  if (parts.length !== 5 || parts[1] !== '') throw badRequest(ANSWER_FILE_MSG.notAnswerFile);
  if (!parts.every((p, i) => i === 1 || canonical(p))) throw badRequest(ANSWER_FILE_MSG.damaged);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(file);
  } catch {
    throw badRequest(ANSWER_FILE_MSG.damaged);
  }
  if (header.typ !== ANSWER_FILE_TYP || header.alg !== ANSWER_FILE_ALG || header.enc !== ANSWER_FILE_ENC) throw badRequest(ANSWER_FILE_MSG.notAnswerFile);
  if (header.kid !== key.kid) throw badRequest(ANSWER_FILE_MSG.otherServer);
  let plaintext: Uint8Array;
  try {
    ({ plaintext } = await compactDecrypt(file, key.privateKey, { keyManagementAlgorithms: [ANSWER_FILE_ALG], contentEncryptionAlgorithms: [ANSWER_FILE_ENC] }));
  } catch {
    // A changed header, key share, IV, ciphertext or tag: AES-GCM's tag does not match.
    throw badRequest(ANSWER_FILE_MSG.damaged);
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    throw badRequest(ANSWER_FILE_MSG.notAnswerFile);
  }
  return parseWith(answerFilePayloadSchema, json);
}

/** The refusal of a file whose token is not (or no longer) its person's. */
const REFUSED: Record<TokenRefusal, string> = {
  invalid: ANSWER_FILE_MSG.badToken,
  'too-old': ANSWER_FILE_MSG.tokenTooOld,
  inactive: ANSWER_FILE_MSG.accountInactive,
  revoked: ANSWER_FILE_MSG.signedOut,
  ended: ANSWER_FILE_MSG.badToken,
};

/**
 * Whose file it is: the person of the token inside, when that token is still theirs — the same
 * decision as for a request's token (lib/sessions.ts tokenOwner; docs/security.md, "Sessions and
 * logout"). A bad signature, a session ended by logout, log out of all devices, a password change
 * or an admin reset, a token version below the person's, an inactive account: refused. An
 * expired token is accepted, as the file may be uploaded long after it was made, but only when
 * its session ended by plain expiry after every attempt of the file was submitted (by the
 * device's clock, the only one there was), and not more than lib/sessions.ts ENDED_SESSION_KEPT_MS
 * (a session's absolute limit) ago: a file is good for at least six months after it was made, and
 * a token found years later opens nothing.
 */
async function ownerOf(deps: Deps, payload: AnswerFilePayload, now: number): Promise<Principal> {
  const verdict = await tokenOwner(deps.db, deps.config.jwtSecret, payload.token, { now, expired: true });
  if (!verdict.ok) throw forbidden(REFUSED[verdict.why]);
  const { endedAt } = verdict;
  if (endedAt !== null && payload.attempts.some((a) => (a.submittedAt ?? a.updatedAt) > endedAt)) throw forbidden(ANSWER_FILE_MSG.afterSignIn);
  return { id: verdict.row.id, name: verdict.row.name, permissions: new Set(), sessionId: verdict.claims.sid };
}

/** A few tries when a push of the same attempt lands between reading the master and writing. */
const MAX_TRIES = 3;

/**
 * POST /api/answer-file: stores and scores the file's attempts through replication's own push
 * (sync.service pushTestSummaries), as the person of the token, so the rules and the counting are
 * the push's: one transaction, compare-and-set against the server's copy, a submitted attempt
 * never changes again, and the result is written once (exam_result.attempt_id is unique). Each
 * attempt is pushed with the server's current copy as the assumed master: the file is the
 * device's final word on it. An attempt already submitted on the server (pushed, or uploaded
 * before) is reported `already` and nothing changes.
 */
export async function uploadAnswerFile(deps: Deps, key: AnswerKey, file: string): Promise<AnswerFileUploadResponse> {
  const payload = await openAnswerFile(key, file);
  const now = Date.now();
  for (const a of payload.attempts) if (a.status !== 'SUBMITTED' || a._deleted) throw badRequest(ANSWER_FILE_MSG.notSubmitted);
  const ids = [...new Set(payload.attempts.map((a) => a.id))];
  if (ids.length !== payload.attempts.length) throw badRequest(ANSWER_FILE_MSG.notAnswerFile);
  const me = await ownerOf(deps, payload, now);

  // A set that was never published: refused whole (the push would skip it without a word).
  const qsids = [...new Set(payload.attempts.map((a) => a.qsid))];
  const sets = await deps.db.select({ id: questionSet.id, publishedAt: questionSet.publishedAt }).from(questionSet).where(inArray(questionSet.id, qsids));
  if (qsids.some((id) => sets.find((s) => s.id === id)?.publishedAt == null)) throw badRequest(ANSWER_FILE_MSG.unknownSet);

  const masters = async () => new Map((await deps.db.select().from(attempt).where(inArray(attempt.id, ids))).map((r) => [r.id, r]));
  let before = await masters();
  for (const m of before.values()) if (m.personId !== me.id) throw forbidden(ANSWER_FILE_MSG.otherPerson);
  const already = new Set([...before.values()].filter((m) => m.status === 'SUBMITTED').map((m) => m.id));

  // The attempts this upload itself wrote: only they are `stored`. One that a push of its device
  // (or another upload of the same file) stored at the same moment is `already`.
  const written = new Set<string>();
  let pending: TestSummaryDoc[] = payload.attempts.filter((a) => !already.has(a.id));
  for (let i = 0; pending.length > 0 && i < MAX_TRIES; i++) {
    const rows = pending.map((doc) => {
      const m = before.get(doc.id);
      return { newDocumentState: doc, assumedMasterState: m ? testSummaryDoc(m) : null };
    });
    const conflicts = await pushTestSummaries(deps, me, rows, written, { offline: true });
    // A conflict is a write of this attempt that came in between: submitted there, it is `already`.
    for (const c of conflicts) if (c.status === 'SUBMITTED') already.add(c.id);
    before = await masters();
    pending = pending.filter((doc) => !already.has(doc.id) && before.get(doc.id)?.status !== 'SUBMITTED');
  }
  // Pushes of the same attempt kept landing in between (its device is syncing right now).
  if (pending.length > 0) throw conflict(ANSWER_FILE_MSG.tryAgain);

  const scored = new Set((await deps.db.select({ id: examResult.attemptId }).from(examResult).where(inArray(examResult.attemptId, ids))).map((r) => r.id));
  deps.log.info({ person: me.id, attempts: ids, already: [...already] }, 'answer file received');
  return {
    success: true,
    attempts: payload.attempts.map((a) => ({ id: a.id, qsid: a.qsid, outcome: written.has(a.id) ? 'stored' : 'already', scored: scored.has(a.id) })),
  };
}
