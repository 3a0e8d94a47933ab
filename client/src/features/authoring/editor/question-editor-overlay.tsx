import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { memo, startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Location, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { refreshQuestionLists } from '../api/questions';
import { listUnderEditor, setEditorOverListOpen } from '../list/editor-over-list-state';
import { DiscardDialog } from './discard-dialog';
import { QuestionEditor } from './question-editor';

/**
 * The question editor over the question list (list/editor-over-list): the list's Edit opens it
 * at /question-editor?id=…, as a dialog the size of the navigation's Create New Question dialog
 * (full screen on phones), while the list stays as it was underneath. Closing it (its close
 * button or Escape; 'Discard Changes?' first when there are unsaved edits) or the browser's Back
 * returns to the list. `at` is the editor's own location, with the list's in its state.
 *
 * Drawn inside the list page (no portal), so it is part of the page's main region as the
 * editor's own page is; no opening animation, so the question is on screen in the first frame.
 *
 * The list makes it hidden (`at` null) once it is idle, before any Edit (docs/benchmarks.md "bench:authoring": 'pm:editor-open'
 * ≤ 300 ms at 4× CPU): Edit then gives an editor that exists its question, which costs a redraw
 * and tiptap's setContent instead of mounting the dialog, its Mantine parts and five editors.
 */
function QuestionEditorOverlay({ at }: { at: Location | null }) {
  const { t } = useTranslation('authoring-editor');
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 48em)');
  const open = at !== null;
  const id = at ? new URLSearchParams(at.search).get('id') : null;
  const dirty = useRef(false);
  const [asking, setAsking] = useState(false);
  // Closed, the editor is made again (hidden, at a low priority) for the next Edit: a question
  // opened again starts from its saved state, never from edits that were discarded.
  const [generation, setGeneration] = useState(0);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) startTransition(() => setGeneration((g) => g + 1));
    wasOpen.current = open;
  }, [open]);
  // While open, the editor is the one the open found: a remake still pending from the last close
  // (an Edit pressed before it was done) must not replace it under the editor's hands.
  const [openedAs, setOpenedAs] = useState<number | null>(null);
  if (open && openedAs === null) setOpenedAs(generation);
  if (!open && openedAs !== null) setOpenedAs(null);
  const editorKey = open ? (openedAs ?? generation) : generation;
  // The list beneath waits while the editor is open, and catches up when it closes.
  const qc = useQueryClient();
  useEffect(() => {
    if (!open) return;
    setEditorOverListOpen(true);
    return () => {
      setEditorOverListOpen(false);
      refreshQuestionLists(qc);
    };
  }, [open, qc]);

  const backToList = () => {
    setAsking(false);
    dirty.current = false;
    if (!at) return;
    // The list's own entry is the one before (Back keeps its place and its scroll); after a
    // reload of an editor opened from a list, the same. Without one, the list's address.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    const list = listUnderEditor(at);
    if (idx > 0 || !list) void navigate(-1);
    else void navigate({ pathname: list.pathname, search: list.search, hash: list.hash }, { replace: true });
  };
  const close = () => (dirty.current ? setAsking(true) : backToList());
  const onDirtyChange = useCallback((d: boolean) => {
    dirty.current = d;
  }, []);
  const state = at?.state as unknown;
  // As on the editor's page: a new question's id goes into the address; New question drops it.
  const onSaved = useCallback(
    (saved: string) => {
      if (saved !== id) void navigate({ pathname: paths.questionEditor, search: `?id=${encodeURIComponent(saved)}` }, { replace: true, state });
    },
    [id, navigate, state],
  );
  const onNew = useCallback(() => void navigate({ pathname: paths.questionEditor }, { state }), [navigate, state]);

  return (
    <Modal
      opened={open}
      onClose={close}
      title={t('page.title')}
      fullScreen={phone}
      size="min(1400px, 96vw)"
      closeButtonProps={{ 'aria-label': t('actions.close') }}
      closeOnClickOutside={false}
      withinPortal={false}
      transitionProps={{ duration: 0 }}
      // The dialog scrolls itself; locking the page's scroll restyles the whole list beneath.
      lockScroll={false}
      // Made before the first Edit and kept between opens (hidden, its effects alive): opening is
      // then a change of question in an editor that exists, not the making of one.
      keepMounted
      keepMountedMode="display-none"
    >
      <QuestionEditor key={editorKey} id={id} active={open} onSaved={onSaved} onNew={onNew} onDirtyChange={onDirtyChange} />
      <DiscardDialog opened={asking} onStay={() => setAsking(false)} onDiscard={backToList} />
    </Modal>
  );
}

/** Drawn again only when the editor's location changes (not with every change of the list). */
export default memo(QuestionEditorOverlay);
