import { Button, Container, Group, Stack, Title } from '@mantine/core';
import { IconFileImport, IconPlus } from '@tabler/icons-react';
import { memo, startTransition, Suspense, useCallback, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { type ListState, readListState, writeListState } from './list-state';
import { EditorSyncBar } from '../offline/editor-sync-bar';
import { QuestionList } from './question-list';
import { EditorOverListContext, openingEditor, preloadEditorOverlay, QuestionEditorOverlay, settleEditorOverList } from './editor-over-list';

/** The table is drawn again only when its own props change, not when the editor opens over it. */
const ListBody = memo(QuestionList);

/**
 * /question-list. The filters and the page live in the address, so a
 * reload, a shared link or Back from the editor shows the same questions. Changes replace the
 * history entry rather than add one: Back leaves the list instead of stepping through every
 * filter typed.
 *
 * Edit opens the editor over the list (editor-over-list): the list stays as it was underneath,
 * not asked again while the editor is open, and Back or closing the editor shows it again.
 */
export default function QuestionListPage() {
  const { t } = useTranslation('authoring-bank');
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const onStateChange = useCallback((next: ListState) => setParams(writeListState(next), { replace: true }), [setParams]);
  const routed = useContext(EditorOverListContext);
  // Edit's click draws the editor at once; the router's location follows (editor-over-list).
  const early = useSyncExternalStore(openingEditor.subscribe, openingEditor.get, () => null);
  useEffect(() => {
    if (routed) settleEditorOverList();
  }, [routed]);
  // A list that goes away (the editor's own page took its place) leaves no early editor behind
  // for the next list to draw, nor a paused list.
  useEffect(() => settleEditorOverList, []);
  // Back (or Forward) before the router's own navigation to the editor was drawn: the early
  // editor goes (the router brings the editor back if the entry it shows is the editor's).
  useEffect(() => {
    window.addEventListener('popstate', settleEditorOverList);
    return () => window.removeEventListener('popstate', settleEditorOverList);
  }, []);
  const editing = routed ?? early;
  // The editor is made hidden once the list is idle, so that Edit opens one that exists.
  const warm = useWarmEditor();
  return (
    <Container size="xl" py="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={2}>{t('list.title')}</Title>
          <Group>
            <Button component={Link} to={paths.questionImport} variant="light" leftSection={<IconFileImport size={16} aria-hidden />}>
              {t('list.importExport')}
            </Button>
            <Button component={Link} to={paths.questionEditor} leftSection={<IconPlus size={16} aria-hidden />}>
              {t('list.newQuestion')}
            </Button>
          </Group>
        </Group>
        <EditorSyncBar />
        <ListBody state={state} onStateChange={onStateChange} />
      </Stack>
      {(editing || warm) && (
        <Suspense fallback={null}>
          <QuestionEditorOverlay at={editing} />
        </Suspense>
      )}
    </Container>
  );
}

/** True once the browser has been idle after the list was drawn (then the hidden editor is made). */
function useWarmEditor(): boolean {
  const [warm, setWarm] = useState(false);
  useEffect(() => {
    if (warm) return;
    const go = () => {
      preloadEditorOverlay();
      startTransition(() => setWarm(true));
    };
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(go, 500);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(go, { timeout: 3000 });
    return () => cancelIdleCallback(handle);
  }, [warm]);
  return warm;
}
