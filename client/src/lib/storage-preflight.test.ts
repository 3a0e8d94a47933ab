import { expect, test } from 'vitest';
import en from '../locales/en/exam-integrity.json';
import hi from '../locales/hi/exam-integrity.json';
import { ANSWER_RESERVE_BYTES, BYTES_PER_IMAGE, BYTES_PER_QUESTION, FONT_BYTES, formatMegabytes, judge, preflight, probeRoom, storageNeed } from './storage-preflight';

/** The browser's StorageManager as a browser would answer (the product only reads it). */
function storageManager(estimate: StorageEstimate, { persisted = false, grant = false } = {}) {
  const calls = { persist: 0 };
  return {
    calls,
    storage: {
      estimate: async () => estimate,
      persisted: async () => persisted,
      persist: async () => {
        calls.persist++;
        return grant;
      },
    },
  };
}


test('what the tests still need: missing questions and images, the fonts and room for answers', () => {
  expect(storageNeed({ questionsMissing: 10, imagesMissing: 4 })).toEqual({
    questions: 10 * BYTES_PER_QUESTION,
    images: 4 * BYTES_PER_IMAGE,
    fonts: FONT_BYTES,
    reserve: ANSWER_RESERVE_BYTES,
    total: 10 * BYTES_PER_QUESTION + 4 * BYTES_PER_IMAGE + FONT_BYTES + ANSWER_RESERVE_BYTES,
  });
  expect(storageNeed({ questionsMissing: -1, imagesMissing: 0 }).total).toBe(FONT_BYTES + ANSWER_RESERVE_BYTES);
});

test('short when the quota left is below the need; unknown estimates are never "short"', () => {
  expect(judge({ quota: 5_000_000, usage: 4_000_000 }, true, 2_000_000)).toEqual({ persisted: true, free: 1_000_000, need: 2_000_000, short: true });
  expect(judge({ quota: 5_000_000, usage: 1_000_000 }, false, 2_000_000)).toEqual({ persisted: false, free: 4_000_000, need: 2_000_000, short: false });
  expect(judge({}, null, 2_000_000)).toEqual({ persisted: null, free: null, need: 2_000_000, short: false });
  expect(judge(null, null, 1).short).toBe(false);
});

test('asks for persistence once per session, then judges the estimate', async () => {
  const denied = storageManager({ quota: 10_000_000, usage: 9_500_000 });
  const first = await preflight(3_000_000, { storage: denied.storage });
  expect(first).toEqual({ persisted: false, free: 500_000, need: 3_000_000, short: true });
  await preflight(3_000_000, { storage: denied.storage });
  expect(denied.calls.persist).toBe(1);
  // A browser that already keeps the data is not asked.
  const kept = storageManager({ quota: 10_000_000, usage: 0 }, { persisted: true });
  expect(await preflight(1, { storage: kept.storage })).toMatchObject({ persisted: true, short: false });
  expect(kept.calls.persist).toBe(0);
  expect(await preflight(1, { storage: undefined })).toEqual({ persisted: null, free: null, need: 1, short: false });
});

test('where the estimate claims room (Chromium), a failed probe write makes it short, with no figure for what is left', async () => {
  const { storage } = storageManager({ quota: 10 * 2 ** 30, usage: 0 }, { persisted: true });
  const probed: number[] = [];
  expect(await preflight(3_000_000, { storage, probe: async (b) => (probed.push(b), false) })).toEqual({ persisted: true, free: null, need: 3_000_000, short: true });
  expect(probed).toEqual([3_000_000]);
  expect(await preflight(3_000_000, { storage, probe: async () => true })).toMatchObject({ short: false });
  // No Cache Storage: the probe cannot tell, the estimate stands.
  expect(await probeRoom(10, undefined)).toBeNull();
});

test('the probe writes the bytes for real and leaves nothing behind; QuotaExceededError means no room', async () => {
  const names = new Set<string>();
  let sizes: number[] = [];
  const caches = (limit: number) =>
    ({
      open: async (name: string) => {
        names.add(name);
        return {
          put: async (_url: string, res: Response) => {
            const size = (await res.arrayBuffer()).byteLength;
            sizes.push(size);
            if (size > limit) throw new DOMException('full', 'QuotaExceededError');
          },
        };
      },
      delete: async (name: string) => names.delete(name),
    }) as unknown as CacheStorage;
  expect(await probeRoom(2048, caches(4096))).toBe(true);
  expect(sizes).toEqual([2048]);
  expect(names.size).toBe(0);
  sizes = [];
  expect(await probeRoom(8192, caches(4096))).toBe(false);
  expect(names.size).toBe(0);
});

test('sizes read as megabytes, and the messages exist in English and Hindi with the same placeholders', () => {
  expect(formatMegabytes(3.4 * 1024 * 1024, 'en')).toBe('3.4 MB');
  expect(formatMegabytes(10, 'en')).toBe('0.1 MB');
  const flat = (o: object, p = ''): Record<string, string> =>
    Object.fromEntries(Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [[p + k, v]] : Object.entries(flat(v as object, `${p}${k}.`)))));
  const e = flat(en);
  const h = flat(hi);
  expect(Object.keys(h).sort()).toEqual(Object.keys(e).sort());
  for (const key of Object.keys(e)) {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    expect(vars(h[key]!), key).toEqual(vars(e[key]!));
    expect(h[key], key).not.toEqual(e[key]);
    expect(h[key]!, key).toMatch(/[\u0900-\u097F]/);
  }
});
