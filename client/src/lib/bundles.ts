import { BUNDLE_EXT, BUNDLE_MIME, BundleError, type BundleKey, type BundlePayload, bundleKeysResponseSchema, MAX_BUNDLE_BYTES, openBundle } from '@pm/protocol/bundle';
import type { ReplicaDatabase } from '@/db/core/database';
import { keepSharedSet } from '@/db/learner/shared-sets';
import { serverClock } from '@/db/sync/server-clock';
import { MEDIA_CACHE } from './media-precache';
import { getSession } from './session';

/*
 * Tests handed from phone to phone on the device (docs/live-tests.md "A test handed from phone to
 * phone"; the format is described in sync-protocol/src/bundle.ts). The server's public keys are
 * fetched whenever the exam list opens online and kept here, so that a phone that never sees the
 * network again can still check a bundle.
 */

const KEYS_STORAGE = 'bundleKeys';
const KEYS_PATH = '/api/bundle/v1/keys';
const KEYS_TIMEOUT_MS = 5000;

/** The keys kept on this device (none before the first fetch). */
export function storedBundleKeys(): BundleKey[] {
  try {
    const raw = localStorage.getItem(KEYS_STORAGE);
    if (!raw) return [];
    const r = bundleKeysResponseSchema.safeParse(JSON.parse(raw));
    return r.success ? r.data.keys : [];
  } catch {
    return [];
  }
}

/** Fetches the server's keys in the background and keeps them (the server's list replaces the one kept: a retired key goes). */
export function rememberBundleKeys(): void {
  void fetch(KEYS_PATH, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(KEYS_TIMEOUT_MS) })
    .then(async (res) => {
      if (!res.ok) return;
      const r = bundleKeysResponseSchema.safeParse(await res.json());
      if (r.success) localStorage.setItem(KEYS_STORAGE, JSON.stringify(r.data));
    })
    .catch(() => undefined);
}

/** Why a bundle could not be made or opened: the refusals of the format, and the device's own. */
export type ShareRefusal = BundleError['reason'] | 'signIn' | 'offline' | 'failed';

export class ShareError extends Error {
  constructor(readonly reason: ShareRefusal) {
    super(reason);
    this.name = 'ShareError';
  }
}

/** The server's bundle of a set, as a file. */
async function fetchBundle(qsid: string): Promise<File> {
  const token = getSession()?.token;
  let res: Response;
  try {
    res = await fetch(`/api/bundle/v1/sets/${encodeURIComponent(qsid)}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ShareError('offline');
  }
  if (!res.ok) throw new ShareError(res.status === 401 ? 'signIn' : 'failed');
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `${qsid}.${BUNDLE_EXT}`;
  return new File([await res.blob()], name, { type: BUNDLE_MIME });
}

/** Saves a file through a link (the fallback where the Web Share API takes no files). */
function saveFile(file: File): void {
  const href = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = href;
  a.download = file.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * "Share this test": the server's signed bundle of the set, handed to the phone's share sheet
 * (Bluetooth, Nearby Share, a messaging app) where it takes files, else saved as a download.
 * Resolves with how it went; a share the learner cancelled is not an error.
 */
export async function shareBundle(qsid: string, title: string): Promise<'shared' | 'saved' | 'cancelled'> {
  const file = await fetchBundle(qsid);
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title });
      return 'shared';
    } catch (err) {
      if ((err as Error).name === 'AbortError') return 'cancelled';
      // A share target that refused the file: the download still works.
    }
  }
  saveFile(file);
  return 'saved';
}

/** Puts the bundle's images into the cache the service worker serves /media/ from, so the test shows them offline. */
async function keepImages(media: BundlePayload['media']): Promise<void> {
  if (typeof caches === 'undefined' || Object.keys(media).length === 0) return;
  const cache = await caches.open(MEDIA_CACHE);
  for (const [url, b64] of Object.entries(media)) {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const type = url.endsWith('.png') ? 'image/png' : url.endsWith('.webp') ? 'image/webp' : 'image/jpeg';
    await cache.put(new Request(url), new Response(bytes, { headers: { 'content-type': type } }));
  }
}

/**
 * "Open a shared test": checks the file with the keys this device holds, offline (a changed,
 * expired or foreign file is refused, ShareError), and keeps the set on the device. A guest may
 * open free sets only; a paid set is taken signed in, within the plan as any set is.
 */
export async function importBundle(db: ReplicaDatabase, file: Pick<Blob, 'size' | 'arrayBuffer'>, opts: { guest: boolean }): Promise<BundlePayload> {
  if (file.size > MAX_BUNDLE_BYTES) throw new ShareError('notBundle');
  let payload: BundlePayload;
  try {
    payload = await openBundle(new Uint8Array(await file.arrayBuffer()), storedBundleKeys(), Date.now() + serverClock.offset());
  } catch (err) {
    throw new ShareError(err instanceof BundleError ? err.reason : 'notBundle');
  }
  if (opts.guest && !payload.set.free) throw new ShareError('signIn');
  await keepImages(payload.media).catch((err: unknown) => console.error('shared test: images not kept', err));
  await keepSharedSet(db, { set: payload.set, detail: payload.detail, exp: payload.exp, at: Date.now() });
  return payload;
}
