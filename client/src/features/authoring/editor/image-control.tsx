import { Loader } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import type { Editor } from '@tiptap/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MEDIA_MAX_BYTES, MEDIA_TYPES } from '../../../../../sync-protocol/src/media';
import { notifyError } from '../../../lib/notify';
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
 * The toolbar's image control (issue 17 §2): PNG, JPEG or WebP up to 1 MiB, uploaded to
 * POST /api/media; the returned /media/ address is inserted at the cursor. The control is the
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
      const { url } = await uploadImage(file);
      editor.chain().focus().setImage({ src: url, alt: '' }).run();
    } catch {
      // lib/api-client has shown the server's message.
    } finally {
      setBusy(false);
    }
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
