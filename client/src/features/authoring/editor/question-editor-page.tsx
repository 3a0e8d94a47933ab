import { Container, Title } from '@mantine/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EditorSyncBar } from '../offline/editor-sync-bar';
import { QuestionEditor } from './question-editor';

/**
 * /question-editor: a new question, or with ?id=<id> that question (the question list's
 * Edit opens this address). A created question's id goes into the address, so a reload keeps it.
 */
export default function QuestionEditorPage() {
  const { t } = useTranslation('authoring-editor');
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const onSaved = useCallback((saved: string) => {
    if (saved !== id) setParams({ id: saved }, { replace: true });
  }, [id, setParams]);
  const onNew = useCallback(() => setParams({}, { replace: false }), [setParams]);
  return (
    <Container size="xl" py="md">
      <Title order={1} size="h2" mb="md">
        {t('page.title')}
      </Title>
      <EditorSyncBar />
      <QuestionEditor id={id} onSaved={onSaved} onNew={onNew} />
    </Container>
  );
}
