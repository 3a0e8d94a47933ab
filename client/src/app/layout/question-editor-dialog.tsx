import { Loader, Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PreviewProvider, type Previews } from '../../components/preview-context';
import { DiscardDialog } from '../../features/authoring/editor/discard-dialog';
import { queryClient } from '../query-layout';
import { closeQuestionDialog } from './question-dialog';

/** The editor is its own chunk: the dialog's frame loads first, the editor (tiptap, KaTeX) inside it. */
const QuestionEditor = lazy(() => import('../../features/authoring/editor/question-editor'));
/** The test screen's view for the editor's preview (the same chunks app/router lends the authoring routes). */
const previews: Previews = {
  QuestionPreview: lazy(() => import('../../features/exams/components/question-preview')),
  SetPreview: lazy(() => import('../../features/exams/components/set-preview-dialog')),
};

/**
 * The navigation's "Create New Question" dialog: the question editor in
 * a modal, full screen on phones. Outside the routes' TanStack Query layout (it opens over any
 * page, the home page too), so it brings the app's one query client itself. Closing with unsaved
 * edits asks 'Discard Changes?'.
 */
export default function QuestionEditorDialog({ opened }: { opened: boolean }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const dirty = useRef(false);
  const [asking, setAsking] = useState(false);
  // A fresh editor each time the dialog opens.
  const [session, setSession] = useState(0);
  const onDirtyChange = useCallback((d: boolean) => {
    dirty.current = d;
  }, []);
  const close = () => {
    if (dirty.current) setAsking(true);
    else finish();
  };
  const finish = () => {
    setAsking(false);
    dirty.current = false;
    closeQuestionDialog();
    setSession((n) => n + 1);
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('nav.createQuestion')}
      fullScreen={phone}
      size="min(1400px, 96vw)"
      closeButtonProps={{ 'aria-label': t('actions.close') }}
      closeOnClickOutside={false}
    >
      <QueryClientProvider client={queryClient}>
        <PreviewProvider value={previews}>
          <Suspense fallback={<Loader aria-label={t('actions.loading')} />}>
            <QuestionEditor key={session} id={null} onDirtyChange={onDirtyChange} />
            <DiscardDialog opened={asking} onStay={() => setAsking(false)} onDiscard={finish} />
          </Suspense>
        </PreviewProvider>
      </QueryClientProvider>
    </Modal>
  );
}
