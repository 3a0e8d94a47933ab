/**
 * Images in questions (docs/authoring.md): POST /api/media with the image's bytes as the body (any
 * Content-Type; the type is decided by the bytes) → `{ success, url }`, `url` being
 * `/media/<sha256>.<ext>`, served with a year's cache lifetime. PNG, JPEG and WebP up to 1 MiB.
 */
export const MEDIA_MAX_BYTES = 1_048_576;
/**
 * Most pixels an image may state (width × height): 16 megapixels, e.g. 4096 × 4096, which a
 * browser decodes into 64 MiB. A small file can state a huge size (PNG and WebP compress a
 * uniform area almost to nothing), and every learner's device decodes what a question shows.
 */
export const MEDIA_MAX_PIXELS = 4096 * 4096;
export const MEDIA_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
export type MediaExt = keyof typeof MEDIA_TYPES;
/** An address of an uploaded image, as stored in rich text. */
export const MEDIA_URL = /^\/media\/[0-9a-f]{64}\.(png|jpg|webp)$/;
export type MediaUploadResponse = { success: true; url: string; msg: string };
