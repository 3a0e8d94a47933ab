import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MEDIA_MAX_BYTES, MEDIA_TYPES, MEDIA_URL, type MediaExt, type MediaUploadResponse } from '@pm/protocol/media';
import { MSG } from '@pm/protocol/messages';
import type { Deps, Principal } from '../../context';
import { logActivity } from '../../lib/activity';
import { AppError } from '../../lib/errors';
import { checkImage } from './image-format';

/*
 * Images in questions (docs/authoring.md; the contract is sync-protocol/src/media.ts). An upload is
 * stored once per content: DATA_DIR/media/<sha256 of the bytes>.<png|jpg|webp>, so the same image
 * uploaded twice (or by two editors at once) is one file and one address, and an address never
 * changes what it shows, which is what lets GET /media/… be cached for a year.
 */

/** The folder of the images, inside DATA_DIR (backed up and moved with the database). */
export const mediaDir = (deps: Pick<Deps, 'config'>) => path.join(deps.config.dataDir, 'media');

/**
 * 415 Unsupported Media Type (RFC 9110 §15.5.16): the bytes are not a PNG, JPEG or WebP, or not
 * a whole one (`imageBroken`). The wire's error code stays BAD_REQUEST (sync-protocol/src/errors
 * has none of its own for it); the status tells an HTTP client what kind of refusal it is.
 */
class UnsupportedImage extends AppError {
  override readonly status = 415;
  constructor(msg: string = MSG.imageType) {
    super('BAD_REQUEST', msg);
  }
}
export const unsupportedImage = (msg?: string) => new UnsupportedImage(msg);
export const imageTooLarge = () => new AppError('PAYLOAD_TOO_LARGE', MSG.imageTooLarge);

/**
 * The file type by the bytes (image-format.ts: the signature, then the file's structure and the
 * size it states), never by a name or a Content-Type: an HTML page named .png is refused, a PNG
 * sent as image/jpeg is a PNG, and nothing is decompressed to decide (docs/security.md, "Files in
 * and out"). An animated PNG or WebP is a PNG or WebP. Throws 415 for anything but a whole PNG,
 * JPEG or WebP, 413 for one stating more than MEDIA_MAX_PIXELS.
 */
export function imageType(bytes: Uint8Array): MediaExt {
  const found = checkImage(bytes);
  if (found.ok) return found.ext;
  if (found.reason === 'pixels') throw new AppError('PAYLOAD_TOO_LARGE', MSG.imageTooManyPixels);
  throw unsupportedImage(found.reason === 'broken' ? MSG.imageBroken : MSG.imageType);
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/**
 * Writes checked image bytes under their content's hash, once: the file is written under a
 * temporary name in the same folder and renamed into place, so that a reader never sees half a
 * file, and concurrent uploads of the same bytes each rename a complete, identical file onto the
 * one name (rename replaces atomically on POSIX). Also what campaign images are stored with
 * (modules/campaigns): one folder, one address scheme, one cache rule.
 */
export async function writeMediaFile(deps: Pick<Deps, 'config'>, bytes: Uint8Array, ext: MediaExt): Promise<{ url: string; existing: boolean }> {
  const name = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
  const dir = mediaDir(deps);
  const file = path.join(dir, name);
  const existing = await exists(file);
  if (!existing) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temp, bytes, { flag: 'wx', mode: 0o600 });
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }
  return { url: `/media/${name}`, existing };
}

/**
 * POST /api/media: checks and stores an image (the route has read at most MEDIA_MAX_BYTES), once
 * per content (writeMediaFile). Every upload is an activity entry.
 */
export async function storeImage(deps: Deps, actor: Principal, bytes: Uint8Array): Promise<MediaUploadResponse> {
  if (bytes.byteLength > MEDIA_MAX_BYTES) throw imageTooLarge();
  const ext = imageType(bytes);
  const { url, existing } = await writeMediaFile(deps, bytes, ext);
  await logActivity(deps.db, {
    actor: { id: actor.id, name: actor.name },
    action: 'CREATE',
    entity: 'media',
    entityId: url.slice('/media/'.length),
    newValue: { url, type: MEDIA_TYPES[ext], bytes: bytes.byteLength, ...(existing && { existing: true }) },
  });
  return { success: true, url, msg: MSG.imageUploaded };
}

/** A stored image, or null when the address is not one of ours or no such file exists. */
export type MediaFile = { bytes: Uint8Array<ArrayBuffer>; type: string; etag: string };

/**
 * GET /media/<sha256>.<ext>: only addresses of MEDIA_URL's exact shape reach the disk, so no other
 * file (a dot-file, a temporary upload, anything outside the folder) can be named.
 */
export async function readImage(deps: Pick<Deps, 'config'>, pathname: string): Promise<MediaFile | null> {
  const m = MEDIA_URL.exec(pathname);
  if (!m) return null;
  const name = pathname.slice('/media/'.length);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    // readFile's buffer is never a SharedArrayBuffer.
    bytes = (await readFile(path.join(mediaDir(deps), name))) as Uint8Array<ArrayBuffer>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  // The name is the content's hash: a strong validator as it is.
  return { bytes, type: MEDIA_TYPES[m[1] as MediaExt], etag: `"${name.slice(0, name.indexOf('.'))}"` };
}

/** Whether an If-None-Match header names this ETag (or `*`). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}
