import type { Hono } from 'hono';
import { MEDIA_MAX_BYTES } from '@pm/protocol/media';
import type { AppEnv, Deps } from '../../context';
import { principalOf, route } from '../../lib/route';
import * as media from './media.service';

/** Where the API takes uploads; app.ts leaves this path's body to the route (its own limit and message). */
export const MEDIA_UPLOAD_PATH = '/api/media';

/** Uploaded images never change under their address (the name is the content's hash). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The body's bytes, refused (`tooLarge`, 413 by default: nothing stored) past `max`: a declared
 * Content-Length is checked before anything is read, and the bytes are counted as they stream, so
 * that a chunked or lying body is never buffered beyond max + one chunk. Campaign images
 * (modules/campaigns) are read with it too, with their own limit and message.
 */
export async function readCapped(req: Request, max: number, tooLarge: () => Error = media.imageTooLarge): Promise<Uint8Array> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > max) throw tooLarge();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** POST /api/media (QUESTION_EDITOR, access.ts): the image's bytes as the body, any Content-Type. */
export function mediaRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'POST /media', async (c) => {
    const actor = principalOf(c);
    // A declared oversize body costs no budget; then the budget is spent before the body is read.
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > MEDIA_MAX_BYTES) throw media.imageTooLarge();
    await deps.rates.consume('mediaPerson', actor.id);
    const bytes = await readCapped(c.req.raw, MEDIA_MAX_BYTES);
    return c.json(await media.storeImage(deps, actor, bytes), 201);
  });
}

/**
 * GET /media/<sha256>.<ext>: the images, public (a learner's test screen and its service worker
 * load them, signed in or not) and outside /api like the site's other files, so not in the access
 * table (which is the API's). Registered on the root app before the client's files (index.ts), so
 * that an unknown image is a 404 and never index.html. The security headers of /media/ (a policy
 * that allows nothing, nosniff) come from lib/security-headers.
 */
export function mediaFileRoutes(app: Hono<AppEnv>, deps: Deps) {
  app.get('/media/*', async (c) => {
    const file = await media.readImage(deps, c.req.path);
    if (!file) return c.notFound();
    const headers = { 'Cache-Control': IMMUTABLE, ETag: file.etag };
    if (media.matchesEtag(c.req.header('if-none-match'), file.etag)) return c.body(null, 304, headers);
    return c.body(file.bytes, 200, { ...headers, 'Content-Type': file.type });
  });
}
