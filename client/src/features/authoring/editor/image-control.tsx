import { Loader } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import type { Editor } from '@tiptap/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MEDIA_MAX_BYTES, MEDIA_TYPES } from '@pm/protocol/media';
import { ApiError } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { uploadImage } from '../api/media';
import classes from './rich-text-field.module.css';

const ACCEPTED: readonly string[] = Object.values(MEDIA_TYPES);

/**
 * Why a file cannot be uploaded, checked before sending (the server checks again, by the bytes):
 * the same messages as the server's (sync-protocol MSG), so an editor reads one text either way.
 */
export function imageProblem(file: Pick<File, 'type' | 'size'>): 'imageType' | 'imageTooLarge' | null {
  if (!ACCEPTED.includes(file.type)) return 'imageType';
  if (file.size > MEDIA_MAX_BYTES) return 'imageTooLarge';
  return null;
}

/**
 * The toolbar's image control (docs/authoring.md): PNG, JPEG or WebP up to 1 MiB, uploaded to
 * POST /api/media; the returned /media/ address is inserted at the cursor. Offline, the image is
 * kept on the device and uploaded with the question (docs/authoring.md "Offline authoring"). The control is the
 * file input itself (transparent, over the icon), so that it is one named control that the
 * keyboard, screen readers and tests reach as "Insert image".
 */
export function ImageControl({ editor }: { editor: Editor | null }) {
  const { t } = useTranslation(['authoring-editor', 'messages']);
  const [busy, setBusy] = useState(false);

  const onFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // The same file chosen again must fire `change` again.
    input.value = '';
    if (!file || !editor) return;
    const problem = imageProblem(file);
    if (problem) {
      notifyError(t(`messages:${problem}`));
      return;
    }
    setBusy(true);
    try {
      const url = navigator.onLine === false ? await keptOffline(file) : await uploaded(file);
      if (url) editor.chain().focus().setImage({ src: url, alt: '' }).run();
    } finally {
      setBusy(false);
    }
  };
  // Online: uploaded now. Without a network (docs/authoring.md "Offline authoring"): kept on the device under the address
  // the server will give it, and uploaded before the question (offline/offline-media.ts).
  const uploaded = async (file: File) => {
    try {
      return (await uploadImage(file, { silent: true })).url;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'NETWORK') return keptOffline(file);
      notifyError(err instanceof ApiError ? err.msg : t('messages:someError'));
      return null;
    }
  };
  const keptOffline = async (file: File) => {
    const { keepImageOffline } = await import('../offline/offline-media');
    const url = await keepImageOffline(file).catch(() => null);
    if (url) notifySuccess(t('image.keptOffline'));
    else notifyError(t('image.notKept'));
    return url;
  };

  return (
    <span className={classes.fileControl} data-busy={busy || undefined} title={t('image.insert')}>
      {busy ? <Loader size={14} aria-hidden /> : <IconPhoto size={16} stroke={1.5} aria-hidden />}
      <input
        type="file"
        accept={ACCEPTED.join(',')}
        aria-label={t('image.insert')}
        aria-busy={busy || undefined}
        disabled={!editor || busy}
        onChange={(e) => void onFile(e.currentTarget)}
      />
    </span>
  );
}
