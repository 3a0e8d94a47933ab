/**
 * Images of downloaded tests, put on the device before the learner goes offline (docs/authoring.md).
 *
 * The service worker serves /media/ cache-first from the cache named MEDIA_CACHE (vite.config.ts,
 * workbox runtimeCaching). A worker only caches what the page asks for, and a learner may open a
 * downloaded test for the first time with no connection; so when a set's questions arrive by
 * replication (qs_detail), the page itself fills that cache with the set's images. Done in the
 * background, a few at a time, never holding up the replica; an image that fails (offline, a
 * server error) is tried again with the next document, and all of them again at the next start.
 */

/** The Cache Storage cache the service worker reads /media/ from (vite.config.ts uses the same name). */
export const MEDIA_CACHE = 'pm-media-v1';

/** Our images' addresses as the sanitiser keeps them in rich text (sync-protocol MEDIA_URL, unanchored). */
const MEDIA_IN_HTML = /\/media\/[0-9a-f]{64}\.(?:png|jpg|webp)/g;

/** Downloads at once: enough to use a connection, few enough not to compete with the replica's pulls. */
const PARALLEL = 3;

/** The parts of a qs_detail document that hold rich text. */
type DetailLike = { questions?: readonly { q: string; ops: Record<string, string>; trans: Record<string, { q: string; ops: Record<string, string> }> }[] };

/** Every /media/ address in a set's questions, options and translations, each once, in order. */
export function mediaUrlsOf(doc: DetailLike): string[] {
  const urls = new Set<string>();
  const scan = (html: string) => {
    for (const m of html.matchAll(MEDIA_IN_HTML)) urls.add(m[0]);
  };
  for (const q of doc.questions ?? []) {
    scan(q.q);
    for (const html of Object.values(q.ops)) scan(html);
    for (const tr of Object.values(q.trans)) {
      scan(tr.q);
      for (const html of Object.values(tr.ops)) scan(html);
    }
  }
  return [...urls];
}

export type MediaPrecache = {
  /** Queues a document's images; the promise (for tests) settles when they are done, never rejects. */
  add(doc: DetailLike): Promise<void>;
};

/**
 * A precacher over `caches` (the window's CacheStorage; none in old browsers or insecure pages,
 * where it does nothing). Runs one document after another, so that two documents with the same
 * image download it once.
 */
export function createMediaPrecache(
  opts: {
    caches?: CacheStorage | undefined;
    parallel?: number;
    /**
     * Asked before `count` images not on the device are downloaded (docs/exams.md "Two tabs, storage and eviction", the storage
     * pre-flight): false stops the download (the images are tried again later).
     */
    guard?: (count: number) => Promise<boolean>;
    /** Storing an image failed for lack of room (the downloads stop until the next document). */
    onFull?: () => void;
    /** A document's images were handled (stored, failed or refused). */
    onDone?: () => void;
  } = {},
): MediaPrecache {
  const caches = 'caches' in opts ? opts.caches : globalThis.caches;
  const parallel = opts.parallel ?? PARALLEL;
  /** Images that failed, tried again with the next document. */
  const retry = new Set<string>();
  let queue: Promise<void> = Promise.resolve();

  async function fill(urls: string[]): Promise<void> {
    if (!caches || urls.length === 0) return;
    let cache: Cache;
    try {
      cache = await caches.open(MEDIA_CACHE);
    } catch {
      for (const url of urls) retry.add(url);
      return;
    }
    const pending: string[] = [];
    for (const url of urls) {
      if (await cache.match(url).catch(() => undefined)) retry.delete(url);
      else pending.push(url);
    }
    if (pending.length === 0) return;
    if (opts.guard && !(await opts.guard(pending.length).catch(() => true))) {
      for (const url of pending) retry.add(url);
      return;
    }
    const worker = async () => {
      for (let url = pending.shift(); url !== undefined; url = pending.shift()) {
        try {
          if (!(await cache.match(url))) await cache.add(url);
          retry.delete(url);
        } catch (err) {
          retry.add(url);
          // The device is full: the rest waits too (docs/exams.md "Two tabs, storage and eviction": stop, and say so).
          if ((err as { name?: string } | null)?.name === 'QuotaExceededError') {
            for (const rest of pending.splice(0)) retry.add(rest);
            opts.onFull?.();
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, pending.length) }, worker));
  }

  return {
    add(doc) {
      const urls = mediaUrlsOf(doc);
      // What failed before (also for the document just ahead in the queue) goes along.
      queue = queue
        .then(() => fill([...new Set([...urls, ...retry])]))
        .catch(() => undefined)
        .finally(() => opts.onDone?.());
      return queue;
    },
  };
}

/** Which of `urls` are in the media cache (none without Cache Storage). */
export async function cachedMedia(urls: readonly string[], caches: CacheStorage | undefined = globalThis.caches): Promise<Set<string>> {
  const found = new Set<string>();
  if (!caches || urls.length === 0) return found;
  try {
    const cache = await caches.open(MEDIA_CACHE);
    await Promise.all(urls.map(async (url) => (await cache.match(url)) && found.add(url)));
  } catch {
    // No cache: nothing is there.
  }
  return found;
}
