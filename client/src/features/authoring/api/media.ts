import { api } from '@/lib/api-client';
import type { MediaUploadResponse } from '@pm/protocol/media';

/** POST /api/media: the file's bytes as the body; the server decides the type by the bytes. */
export function uploadImage(file: Blob, opts: { silent?: boolean } = {}): Promise<MediaUploadResponse> {
  return api('/media', { method: 'POST', body: file, ...opts });
}
