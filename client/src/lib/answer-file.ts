import { ANSWER_FILE_EXT, ANSWER_FILE_VERSION, type AnswerKeyResponse, answerKeyResponseSchema } from '@pm/protocol/answer-file';
import { type TestSummaryDoc, testSummaryDocSchema } from '@pm/protocol/sync/test-summary';

/*
 * The last-resort answer file on the device (docs/answer-file.md; the format is described in
 * sync-protocol/src/answer-file.ts). The server's public key is fetched whenever the device is
 * online at the start of a test and kept here, and the service worker keeps the last answer of
 * GET /api/answer-file/key too (vite.config.ts), so that a file can be made offline.
 */

const KEY_STORAGE = 'answerFileKey';
const KEY_PATH = '/api/answer-file/key';
/** Long enough for a slow mobile network; then the stored key is used. */
const KEY_TIMEOUT_MS = 5000;

function storedKey(): AnswerKeyResponse | null {
  try {
    const raw = localStorage.getItem(KEY_STORAGE);
    if (!raw) return null;
    const r = answerKeyResponseSchema.safeParse(JSON.parse(raw));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** The server's key as it answers now (or the service worker's copy of it), kept on the device; null when neither answers. */
async function fetchKey(): Promise<AnswerKeyResponse | null> {
  try {
    const res = await fetch(KEY_PATH, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(KEY_TIMEOUT_MS) });
    if (!res.ok) return null;
    const r = answerKeyResponseSchema.safeParse(await res.json());
    if (!r.success) return null;
    localStorage.setItem(KEY_STORAGE, JSON.stringify(r.data));
    return r.data;
  } catch {
    return null;
  }
}

/** Fetches and keeps the key in the background (a test is about to start; the device may go offline). */
export function rememberAnswerKey(): void {
  void fetchKey();
}

/** The key to encrypt to: the server's current one when it can be reached, else the one kept. */
export async function answerKey(): Promise<AnswerKeyResponse | null> {
  return (await fetchKey()) ?? storedKey();
}

/** Why a file could not be made. */
export class AnswerFileError extends Error {
  constructor(readonly reason: 'noKey' | 'notSignedIn' | 'notSubmitted') {
    super(reason);
  }
}

/** `<set>-<attempt>.pmans`, in characters every file system takes. */
export function answerFileName(attempt: Pick<TestSummaryDoc, 'id' | 'qsid'>): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-');
  return `${safe(attempt.qsid)}-${safe(attempt.id)}.${ANSWER_FILE_EXT}`;
}

/** The attempt's fields as replication pushes them (an RxDB document's JSON carries more, or less). */
const wireAttempt = testSummaryDocSchema.omit({ _deleted: true }).strip();

/**
 * Makes the answer file of a submitted attempt, signed with the session (its token goes inside)
 * and encrypted to the server's key. The encryption code (jose) loads only now.
 */
export async function makeAnswerFile(attempt: Omit<TestSummaryDoc, '_deleted'>, token: string | null | undefined): Promise<{ name: string; text: string }> {
  if (attempt.status !== 'SUBMITTED') throw new AnswerFileError('notSubmitted');
  if (!token) throw new AnswerFileError('notSignedIn');
  const key = await answerKey();
  if (!key) throw new AnswerFileError('noKey');
  const { sealAnswerFile } = await import('@pm/protocol/answer-file-seal');
  const doc = { ...wireAttempt.parse(attempt), _deleted: false };
  const text = await sealAnswerFile({ v: ANSWER_FILE_VERSION, token, createdAt: Date.now(), attempts: [doc] }, key);
  return { name: answerFileName(attempt), text };
}

/** Hands a file to the browser's downloads (works offline: nothing leaves the device). */
export function downloadText(name: string, text: string, type = 'application/octet-stream'): void {
  const href = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
