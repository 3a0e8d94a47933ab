import { type MediaExt, MEDIA_TYPES } from '@pm/protocol/media';
import { MEDIA_CACHE } from '@/lib/media-precache';

/*
 * Images added while offline (docs/authoring.md "Offline authoring": "images added offline upload with the question").
 * The server names an image by its content (/media/<sha256 of the bytes>.<type by the bytes>,
 * server/src/modules/media), so the device can give the image its final address at once: the
 * bytes go into the service worker's image cache under that address (the editor, the preview and
 * the list show it offline, as any uploaded image) and into a cache of their own until uploaded.
 * The question replication uploads them before it pushes questions (uploadPendingImages), so the
 * server never holds a question whose image it does not have; the server checks the bytes again
 * and must answer the same address.
 */

/** The images made offline and not uploaded yet (Cache Storage: survives reloads, needs no schema). */
export const PENDING_MEDIA_CACHE = 'pm-media-pending';

const canCache = () => typeof caches !== 'undefined' && typeof crypto !== 'undefined' && Boolean(crypto.subtle);

/** The type of an image by its first bytes, as the server decides it (PNG, JPEG, WebP), or null. */
export function imageExtOf(b: Uint8Array): MediaExt | null {
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

/** The address the server will give these bytes, or null when they are no image it takes. */
export async function mediaUrlOf(bytes: ArrayBuffer): Promise<string | null> {
  const ext = imageExtOf(new Uint8Array(bytes));
  if (!ext) return null;
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  return `/media/${Array.from(hash, (x) => x.toString(16).padStart(2, '0')).join('')}.${ext}`;
}

/**
 * Keeps an image on this device under its final address, to upload later; returns the address,
 * or null when this browser cannot keep it (no Cache Storage) or it is no PNG/JPEG/WebP.
 */
export async function keepImageOffline(file: Blob): Promise<string | null> {
  if (!canCache()) return null;
  const bytes = await file.arrayBuffer();
  const url = await mediaUrlOf(bytes);
  if (!url) return null;
  const ext = url.slice(url.lastIndexOf('.') + 1) as MediaExt;
  const response = () => new Response(bytes, { status: 200, headers: { 'content-type': MEDIA_TYPES[ext], 'content-length': String(bytes.byteLength) } });
  await (await caches.open(PENDING_MEDIA_CACHE)).put(url, response());
  await (await caches.open(MEDIA_CACHE)).put(url, response());
  return url;
}

/** How many images wait for upload. */
export async function pendingImageCount(): Promise<number> {
  if (!canCache()) return 0;
  return (await (await caches.open(PENDING_MEDIA_CACHE)).keys()).length;
}

/**
 * Uploads every image kept offline with `upload` (POST /api/media). One the server stores under
 * the same address leaves the pending cache; a network failure stops here (the next push tries
 * again); one the server refuses, or names differently, is dropped from the pending cache (it
 * stays in the image cache for this device) and reported. Returns the addresses that failed.
 */
export async function uploadPendingImages(upload: (file: Blob) => Promise<{ url: string }>): Promise<string[]> {
  if (!canCache()) return [];
  const pending = await caches.open(PENDING_MEDIA_CACHE);
  const failed: string[] = [];
  for (const request of await pending.keys()) {
    const path = new URL(request.url).pathname;
    const stored = await pending.match(request);
    if (!stored) continue;
    const blob = await stored.blob();
    try {
      const { url } = await upload(blob);
      if (url !== path) failed.push(path);
    } catch (err) {
      if ((err as { code?: string }).code === 'NETWORK') throw err;
      failed.push(path);
    }
    await pending.delete(request);
  }
  return failed;
}
