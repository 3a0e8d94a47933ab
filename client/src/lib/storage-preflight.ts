import { numberFormat } from './intl-format';

/**
 * Storage pre-flight (docs/exams.md "Two tabs, storage and eviction"): before the tests' questions and images are put on the device
 * for offline use, ask the browser to keep them (`navigator.storage.persist()`) and compare what
 * it says is left (`navigator.storage.estimate()`) with what they need, so that a learner hears
 * "not enough space" or "the browser may delete them" before a test, not in the middle of it.
 */

/**
 * An image of a question not downloaded yet. Uploads are at most 1 MiB (docs/exams.md, POST
 * /media); the diagrams and photos of questions are mostly far smaller. A quarter of the limit
 * errs on the side of asking for too much.
 */
export const BYTES_PER_IMAGE = 256 * 1024;
/**
 * A question whose text is not on the device yet: its rich text in English and Hindi, options
 * included, as stored by RxDB (with its indexes and revisions), is a few kilobytes.
 */
export const BYTES_PER_QUESTION = 8 * 1024;
/**
 * The fonts a test draws with: the Devanagari faces and KaTeX's (360 KB of woff2 in the build,
 * precached by the service worker with the app shell).
 */
export const FONT_BYTES = 360 * 1024;
/** Room a test needs while it runs: the attempt, its journal records, the result that comes back. */
export const ANSWER_RESERVE_BYTES = 1024 * 1024;

export type StorageNeed = {
  /** Question text not stored yet. */
  questions: number;
  /** Images not stored yet. */
  images: number;
  fonts: number;
  /** For the answers. */
  reserve: number;
  total: number;
};

/** What the tests still to be put on the device need, estimated from what is known of them. */
export function storageNeed({ questionsMissing, imagesMissing }: { questionsMissing: number; imagesMissing: number }): StorageNeed {
  const questions = Math.max(0, questionsMissing) * BYTES_PER_QUESTION;
  const images = Math.max(0, imagesMissing) * BYTES_PER_IMAGE;
  return { questions, images, fonts: FONT_BYTES, reserve: ANSWER_RESERVE_BYTES, total: questions + images + FONT_BYTES + ANSWER_RESERVE_BYTES };
}

export type StorageVerdict = {
  /** The browser promised to keep this site's data (null: it cannot tell). */
  persisted: boolean | null;
  /** Bytes this site may still store (null: the browser does not say, or says wrong). */
  free: number | null;
  need: number;
  /** Less room left than the need: downloads stop and the learner is told. */
  short: boolean;
};

/** The verdict from the browser's estimate and persistence answer. */
export function judge(estimate: StorageEstimate | null, persisted: boolean | null, need: number): StorageVerdict {
  const free = estimate && typeof estimate.quota === 'number' ? Math.max(0, estimate.quota - (estimate.usage ?? 0)) : null;
  return { persisted, free, need, short: free !== null && free < need };
}

/** Megabytes with one decimal, as the learner reads them ("1.5 MB"). */
export function formatMegabytes(bytes: number, lang: string): string {
  const mb = Math.max(0.1, Math.ceil((bytes / (1024 * 1024)) * 10) / 10);
  return `${numberFormat(lang === 'hi' ? 'hi-IN' : 'en-IN', { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(mb)} MB`;
}

type StorageManagerLike = Pick<StorageManager, 'estimate'> & Partial<Pick<StorageManager, 'persist' | 'persisted'>>;

/** The Cache Storage cache the room probe writes to and deletes at once. */
const PROBE_CACHE = 'pm-storage-probe';

/**
 * Whether `bytes` can be stored now, tried for real: an entry of that size is written to Cache
 * Storage and deleted. Current Chromium reports `estimate().quota` as the usage plus a fixed
 * 10 GiB whatever is really left (it keeps sites from learning the disk's size), so on Chromium
 * only a write tells; the other browsers' estimates are checked first. Null without Cache Storage.
 */
export async function probeRoom(bytes: number, caches: CacheStorage | undefined = globalThis.caches): Promise<boolean | null> {
  if (!caches) return null;
  try {
    const cache = await caches.open(PROBE_CACHE);
    await cache.put('/__storage-probe', new Response(new Uint8Array(Math.max(1, Math.round(bytes)))));
    return true;
  } catch (err) {
    return (err as { name?: string } | null)?.name === 'QuotaExceededError' ? false : null;
  } finally {
    await caches.delete(PROBE_CACHE).catch(() => undefined);
  }
}

let persistAsked = false;

/**
 * Asks for persistent storage (once per page session: Chromium answers by its own heuristics,
 * which change as the site is used or installed; Firefox asks the person, who should not be
 * asked again and again), then checks the estimate against `need` bytes.
 */
export async function preflight(
  need: number,
  {
    storage = typeof navigator === 'undefined' ? undefined : navigator.storage,
    probe,
  }: {
    storage?: StorageManagerLike | undefined;
    /** Tries the room for real when the estimate finds enough (see `probeRoom`); a download is due. */
    probe?: (bytes: number) => Promise<boolean | null>;
  } = {},
): Promise<StorageVerdict> {
  if (!storage?.estimate) return judge(null, null, need);
  let persisted: boolean | null = null;
  try {
    persisted = storage.persisted ? await storage.persisted() : null;
    if (persisted === false && storage.persist && !persistAsked) {
      persistAsked = true;
      persisted = await storage.persist();
    }
  } catch {
    persisted = null;
  }
  let estimate: StorageEstimate | null = null;
  try {
    estimate = await storage.estimate();
  } catch {
    estimate = null;
  }
  const verdict = judge(estimate, persisted, need);
  if (verdict.short || !probe) return verdict;
  // The estimate may not tell (Chromium): a write does. Then the room left is less than the need.
  if ((await probe(need)) === false) return { ...verdict, short: true, free: null };
  return verdict;
}
