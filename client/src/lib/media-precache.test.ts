import { describe, expect, test } from 'vitest';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import { cachedMedia, createMediaPrecache, MEDIA_CACHE, mediaUrlsOf } from './media-precache';

const url = (n: number, ext = 'png') => `/media/${n.toString(16).padStart(64, '0')}.${ext}`;
const img = (u: string) => `<p><img src="${u}" alt=""></p>`;

/** A qs_detail document's rich text: question, options, and a Hindi translation. */
function detail(q: string[], ops: string[] = [], hi: string[] = []): Pick<QsDetailDoc, 'questions'> {
  return {
    questions: [
      {
        id: 'q1',
        q: q.map(img).join(''),
        ops: Object.fromEntries(ops.map((u, i) => [String.fromCharCode(97 + i), img(u)])),
        qt: 'mcq1' as const,
        d: '3',
        trans: hi.length ? { hi: { q: hi.map(img).join(''), ops: {} } } : {},
      },
    ],
  };
}

/**
 * CacheStorage in memory: `add` fetches through `network`, which fails for the addresses in
 * `offline`; counts downloads and the most at once.
 */
function fakeCaches(opts: { offline?: Set<string>; failOpen?: boolean; full?: Set<string> } = {}) {
  const stored = new Map<string, Set<string>>();
  const stats = { downloads: [] as string[], running: 0, most: 0, opened: [] as string[] };
  const cache = (name: string) => {
    const entries = stored.get(name) ?? new Set<string>();
    stored.set(name, entries);
    return {
      match: async (u: string) => (entries.has(u) ? new Response('x') : undefined),
      add: async (u: string) => {
        stats.running++;
        stats.most = Math.max(stats.most, stats.running);
        await new Promise((r) => setTimeout(r, 5));
        stats.running--;
        stats.downloads.push(u);
        if (opts.offline?.has(u)) throw new TypeError('Failed to fetch');
        if (opts.full?.has(u)) throw new DOMException('quota', 'QuotaExceededError');
        entries.add(u);
      },
    } as unknown as Cache;
  };
  const caches = {
    open: async (name: string) => {
      stats.opened.push(name);
      if (opts.failOpen) throw new DOMException('denied', 'SecurityError');
      return cache(name);
    },
  } as unknown as CacheStorage;
  return { caches, stored, stats };
}

describe('mediaUrlsOf', () => {
  test('finds our images in questions, options and translations, each once', () => {
    const doc = detail([url(1), url(2)], [url(3, 'jpg'), url(1)], [url(4, 'webp')]);
    expect(mediaUrlsOf(doc)).toEqual([url(1), url(2), url(3, 'jpg'), url(4, 'webp')]);
  });

  test('other images and look-alikes are not ours', () => {
    const doc = detail(['https://cdn.example/a.png', '/media/abc.png', `/media/${'A'.repeat(64)}.png`, url(5, 'gif')]);
    expect(mediaUrlsOf(doc)).toEqual([]);
    expect(mediaUrlsOf({})).toEqual([]);
  });
});

describe('createMediaPrecache', () => {
  test("puts a set's images into the service worker's media cache", async () => {
    const { caches, stored, stats } = fakeCaches();
    await createMediaPrecache({ caches }).add(detail([url(1)], [url(2), url(3)], [url(4)]));
    expect(stats.opened).toEqual([MEDIA_CACHE]);
    expect([...stored.get(MEDIA_CACHE)!].sort()).toEqual([url(1), url(2), url(3), url(4)].sort());
  });

  test('downloads a few at a time, and only what the cache lacks', async () => {
    const { caches, stats } = fakeCaches();
    const precache = createMediaPrecache({ caches, parallel: 3 });
    const urls = Array.from({ length: 10 }, (_, i) => url(i + 1));
    await precache.add(detail(urls));
    expect(stats.downloads).toHaveLength(10);
    expect(stats.most).toBe(3);
    await precache.add(detail([...urls, url(11)]));
    expect(stats.downloads).toHaveLength(11);
    expect(stats.downloads.at(-1)).toBe(url(11));
  });

  test('two documents arriving together download a shared image once', async () => {
    const { caches, stats } = fakeCaches();
    const precache = createMediaPrecache({ caches });
    await Promise.all([precache.add(detail([url(1), url(2)])), precache.add(detail([url(2), url(3)]))]);
    expect(stats.downloads.filter((u) => u === url(2))).toHaveLength(1);
  });

  test('a failed image is tried again with the next document; errors never reach the caller', async () => {
    const offline = new Set([url(2)]);
    const { caches, stored, stats } = fakeCaches({ offline });
    const precache = createMediaPrecache({ caches });
    await expect(precache.add(detail([url(1), url(2)]))).resolves.toBeUndefined();
    expect(stored.get(MEDIA_CACHE)!.has(url(2))).toBe(false);
    offline.clear();
    await precache.add(detail([url(3)]));
    expect([...stored.get(MEDIA_CACHE)!].sort()).toEqual([url(1), url(2), url(3)].sort());
    // Once stored it is not retried.
    await precache.add(detail([url(4)]));
    expect(stats.downloads.filter((u) => u === url(2))).toHaveLength(2);
  });

  test('a cache that cannot be opened is tried again with the next document', async () => {
    const opts = { failOpen: true };
    const { caches, stored, stats } = fakeCaches(opts);
    const precache = createMediaPrecache({ caches });
    await expect(precache.add(detail([url(1)]))).resolves.toBeUndefined();
    expect(stats.downloads).toEqual([]);
    opts.failOpen = false;
    await precache.add(detail([url(2)]));
    expect([...stored.get(MEDIA_CACHE)!].sort()).toEqual([url(1), url(2)].sort());
  });

  test('without Cache Storage (an insecure page, an old browser) it does nothing', async () => {
    await expect(createMediaPrecache({ caches: undefined }).add(detail([url(1)]))).resolves.toBeUndefined();
  });

  test('a document without images opens nothing', async () => {
    const { caches, stats } = fakeCaches();
    await createMediaPrecache({ caches }).add(detail(['https://cdn.example/a.png']));
    expect(stats.opened).toEqual([]);
  });
});

describe('the storage pre-flight (issue 21 §3)', () => {
  test('is asked with the number of images not on the device; a refusal downloads nothing, and a later yes downloads them', async () => {
    const { caches, stats } = fakeCaches();
    const asked: number[] = [];
    let room = false;
    const precache = createMediaPrecache({ caches, guard: async (count) => (asked.push(count), room) });
    await precache.add(detail([url(1), url(2)]));
    expect(asked).toEqual([2]);
    expect(stats.downloads).toEqual([]);
    expect(await cachedMedia([url(1), url(2)], caches)).toEqual(new Set());
    room = true;
    await precache.add(detail([url(3)]));
    expect(asked).toEqual([2, 3]);
    expect(await cachedMedia([url(1), url(2), url(3)], caches)).toEqual(new Set([url(1), url(2), url(3)]));
    // Everything is there: nothing to ask about.
    await precache.add(detail([url(1)]));
    expect(asked).toEqual([2, 3]);
  });

  test('a full device stops the downloads and says so', async () => {
    const { caches, stats } = fakeCaches({ full: new Set([url(1)]) });
    let full = 0;
    const precache = createMediaPrecache({ caches, parallel: 1, onFull: () => full++ });
    await precache.add(detail([url(1), url(2), url(3)]));
    expect(full).toBe(1);
    expect(stats.downloads).toEqual([url(1)]);
  });
});
