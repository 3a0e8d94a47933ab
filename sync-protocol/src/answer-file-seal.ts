import { CompactEncrypt, importJWK } from 'jose';
import { ANSWER_FILE_ALG, ANSWER_FILE_ENC, ANSWER_FILE_TYP, type AnswerFilePayload, answerFilePayloadSchema, type AnswerKeyResponse } from './answer-file';

/** The platform's UTF-8 encoder (browsers and Node alike); sync-protocol compiles without DOM or Node types. */
declare const TextEncoder: new () => { encode(input: string): Uint8Array };

/**
 * Seals an answer file (docs/answer-file.md; the format is described in answer-file.ts): the payload,
 * checked against its schema, encrypted to the server's published key with ECDH-ES + A256GCM as
 * a compact JWE. jose does the work with the platform's WebCrypto (the browser's on a device,
 * Node's in tests). Apart from the schemas, so that only the code that seals loads jose.
 */
export async function sealAnswerFile(payload: AnswerFilePayload, key: Pick<AnswerKeyResponse, 'kid' | 'jwk'>): Promise<string> {
  const checked = answerFilePayloadSchema.parse(payload);
  const publicKey = await importJWK({ ...key.jwk }, ANSWER_FILE_ALG);
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(checked)))
    .setProtectedHeader({ alg: ANSWER_FILE_ALG, enc: ANSWER_FILE_ENC, typ: ANSWER_FILE_TYP, kid: key.kid })
    .encrypt(publicKey);
}
