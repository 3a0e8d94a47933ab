import { Button, Container, Group, Stack, Title } from '@mantine/core';
import { IconFileImport, IconPlus } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { type ListState, readListState, writeListState } from './list-state';
import { EditorSyncBar } from '../offline/editor-sync-bar';
import { QuestionList } from './question-list';

/**
 * /question-list (spec §2 Question list). The filters and the page live in the address, so a
 * reload, a shared link or Back from the editor shows the same questions. Changes replace the
 * history entry rather than add one: Back leaves the list instead of stepping through every
 * filter typed.
 */
export default function QuestionListPage() {
  const { t } = useTranslation('authoring-bank');
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readListState(params), [params]);
  const onStateChange = (next: ListState) => setParams(writeListState(next), { replace: true });
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
        <QuestionList state={state} onStateChange={onStateChange} />
      </Stack>
    </Container>
  );
}
