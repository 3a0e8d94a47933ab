import { z } from 'zod';
import { testSummaryDocSchema } from './sync/test-summary';

/*
 * The last-resort answer file (docs/answer-file.md). When a submitted attempt cannot reach the server,
 * the device exports it as a file that anyone (the learner on another device, an invigilator)
 * uploads later without signing in; the server then stores and scores it exactly as if the
 * device had pushed it.
 *
 * The file is one JWE in compact serialisation (RFC 7516), ASCII, with no line break:
 *
 *   BASE64URL(protected header) . "" . BASE64URL(iv) . BASE64URL(ciphertext) . BASE64URL(tag)
 *
 * - Key agreement `ECDH-ES` (RFC 7518 §4.6): the device makes an ephemeral P-256 key pair
 *   (its public half is the header's `epk`) and agrees a key with the server's answer-file key,
 *   published at GET /api/answer-file/key; Concat KDF gives the content key. Direct agreement,
 *   so the encrypted-key part is empty.
 * - Content encryption `A256GCM`; the protected header is GCM's additional data, so the header
 *   (`kid`, `epk`, `typ`) is authenticated with the payload: a changed bit anywhere fails
 *   decryption (the server also refuses non-canonical base64url, whose spare bits would not).
 * - `kid` is the RFC 7638 thumbprint of the server's public key: a file for another server, or
 *   for a key the server no longer holds, is refused by name before any decryption.
 * - The plaintext is ANSWER_FILE_PAYLOAD JSON (UTF-8): the attempt document(s) as replication
 *   pushes them and the session's access token, whose HMAC signature (the server's own) ties the
 *   file to the person. A bad signature is never accepted, nor a token whose session was ended
 *   (logout, log out of all devices, a password change or reset) or whose token version is below
 *   the person's current one. An expired token is accepted (the file may be uploaded days later)
 *   when its session ended by plain expiry after the file's attempts were submitted.
 *
 * Everything is done with WebCrypto through `jose` on both ends; nothing here is a cipher of ours.
 */

/** File name extension of an answer file (`<set>-<attempt>.pmans`). */
export const ANSWER_FILE_EXT = 'pmans';
/** The JWE's `typ` header. */
export const ANSWER_FILE_TYP = 'pmans+jwe';
/** JWE key management and content encryption of an answer file. */
export const ANSWER_FILE_ALG = 'ECDH-ES';
export const ANSWER_FILE_ENC = 'A256GCM';
/** Version of the payload below. */
export const ANSWER_FILE_VERSION = 1;
/** Most attempts one file carries (as one replication push, PUSH_BATCH). */
export const MAX_ANSWER_FILE_ATTEMPTS = 20;
/**
 * Longest file taken, in characters: the API's JSON body limit (1 MiB) less the wrapper. A
 * 100-question mock test is ~8 kB of answers; only long subjective answers come near this.
 */
export const MAX_ANSWER_FILE_CHARS = 1_000_000;

const b64u = /^[A-Za-z0-9_-]+$/;

/** The server's public answer-file key as a JWK (P-256, ECDH). */
export const answerKeyJwkSchema = z.strictObject({
  kty: z.literal('EC'),
  crv: z.literal('P-256'),
  x: z.string().regex(b64u).length(43),
  y: z.string().regex(b64u).length(43),
});
export type AnswerKeyJwk = z.infer<typeof answerKeyJwkSchema>;

/** GET /api/answer-file/key: the key devices encrypt answer files to, and its thumbprint. */
export const answerKeyResponseSchema = z.strictObject({
  success: z.literal(true),
  kid: z.string().regex(b64u).length(43),
  alg: z.literal(ANSWER_FILE_ALG),
  enc: z.literal(ANSWER_FILE_ENC),
  jwk: answerKeyJwkSchema,
});
export type AnswerKeyResponse = z.infer<typeof answerKeyResponseSchema>;

/** The decrypted content of an answer file. */
export const answerFilePayloadSchema = z.strictObject({
  v: z.literal(ANSWER_FILE_VERSION),
  /** The session's access token (a JWT) when the file was made. */
  token: z.string().min(1).max(4096),
  /** Device time the file was made (ms); informative. */
  createdAt: z.number().int().min(0),
  /** The submitted attempts, as the device would push them. */
  attempts: z.array(testSummaryDocSchema).min(1).max(MAX_ANSWER_FILE_ATTEMPTS),
});
export type AnswerFilePayload = z.infer<typeof answerFilePayloadSchema>;

/**
 * POST /api/answer-file: the file's text exactly as saved. Five base64url parts, the second
 * (the encrypted key) empty; nothing around them, not even a line break.
 */
export const answerFileUploadSchema = z.strictObject({
  file: z
    .string({ error: 'file is required' })
    .max(MAX_ANSWER_FILE_CHARS, { error: 'The answer file is too large' })
    .regex(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, { error: 'This is not an answer file' }),
});
export type AnswerFileUpload = z.infer<typeof answerFileUploadSchema>;

/**
 * What became of each attempt of an uploaded file: `stored` by this upload (and scored, when
 * `scored`), or `already` submitted on the server (by replication or an earlier upload), where
 * nothing changed.
 */
export const ANSWER_FILE_OUTCOMES = ['stored', 'already'] as const;
export type AnswerFileOutcome = (typeof ANSWER_FILE_OUTCOMES)[number];
export type AnswerFileUploadResponse = {
  success: true;
  attempts: { id: string; qsid: string; outcome: AnswerFileOutcome; scored: boolean }[];
};

/**
 * Why a file is refused (the `msg` of the 4xx answer). The upload page shows them in the
 * learner's language (client locales answer-file.json `refused.<key>`).
 */
export const ANSWER_FILE_MSG = {
  notAnswerFile: 'This is not an answer file',
  tooLarge: 'The answer file is too large',
  otherServer: 'This answer file was made for another server or an older key, so it cannot be read here',
  damaged: 'This answer file is damaged or has been changed, so it cannot be accepted',
  badToken: 'The sign-in inside this answer file is not valid',
  tokenTooOld: 'The sign-in inside this answer file is too old. Please take the test again',
  signedOut: 'The sign-in inside this answer file was ended (logout, log out of all devices or a password change), so the file cannot be accepted',
  afterSignIn: 'A test in this answer file was submitted after the sign-in inside it had ended, so the file cannot be accepted',
  accountInactive: 'The account of this answer file is not active',
  notSubmitted: 'An answer file carries submitted tests only',
  unknownSet: 'The test in this answer file is not known to this server',
  otherPerson: 'This test belongs to another account',
  tryAgain: 'This test is being saved from another device right now. Please upload the file again in a minute',
} as const;
