import type { Hono } from 'hono';
import { type AnswerKeyResponse, ANSWER_FILE_ALG, ANSWER_FILE_ENC, answerFileUploadSchema } from '@pm/protocol/answer-file';
import type { AppEnv, Deps } from '../../context';
import { clientIp, parseJson } from '../../lib/http';
import { route } from '../../lib/route';
import { uploadAnswerFile } from './answer-file.service';
import { ensureAnswerKey, loadAnswerKey } from './answer-key';

/**
 * The last-resort answer file (docs/answer-file.md): the public key devices encrypt to, and the upload.
 * Both public: the key is public by nature, and a file is uploaded by whoever holds it (the
 * learner on another device, an invigilator) — it carries its own proof of whose it is.
 */
export function answerFileRoutes(app: Hono<AppEnv>, deps: Deps) {
  // Generated into DATA_DIR (or read from the environment) when the app is built, i.e. on start.
  const key = loadAnswerKey(ensureAnswerKey(deps.config));
  // Awaited by the handlers; a failure shows there (500), not as an unhandled rejection.
  key.catch((err: unknown) => deps.log.error({ err }, 'answer-file key could not be loaded'));

  route(app, deps, 'GET /answer-file/key', async (c) => {
    const { kid, jwk } = await key;
    return c.json({ success: true, kid, alg: ANSWER_FILE_ALG, enc: ANSWER_FILE_ENC, jwk } satisfies AnswerKeyResponse);
  });

  route(app, deps, 'POST /answer-file', async (c) => {
    // Per address before the body is read: decrypting costs an ECDH and a scoring may follow.
    await deps.rates.consume('answerFileIp', clientIp(c, deps.config.TRUST_PROXY));
    const { file } = await parseJson(c, answerFileUploadSchema);
    return c.json(await uploadAnswerFile(deps, await key, file));
  });
}
