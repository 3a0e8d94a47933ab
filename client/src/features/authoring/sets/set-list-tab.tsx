import { ActionIcon, Alert, Badge, Group, Loader, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_EXAM_SECONDS, type QuestionSetView, setQuestionIds } from '@pm/protocol/question-set';
import { notifySuccess } from '@/lib/notify';
import { useDeleteQuestionSet, useQuestionSetList } from '../api/sets';
import { ExportMenu } from '../import/export-menu';
import { ConfirmDialog } from './confirm-dialog';
import { setState, totalMarks } from './set-form';
import { serverText } from './set-messages';
import { useFormatDate } from '@/hooks/use-format-date';

const STATE_COLOR = { draft: 'gray', scheduled: 'yellow', published: 'green' } as const;

/**
 * The Question Set List tab: every live set with what tells them apart — mock or
 * practice, size, marks, duration, when it is published and whether it is yet (Draft, Scheduled,
 * Published), its version and how often learners took it — with edit and delete (confirmed;
 * 'Question set deleted successfully').
 */
export function SetListTab({ onEdit }: { onEdit: (id: string) => void }) {
  const { t, i18n } = useTranslation(['authoring-bank', 'messages']);
  const list = useQuestionSetList();
  const remove = useDeleteQuestionSet();
  const [toDelete, setToDelete] = useState<QuestionSetView | null>(null);
  const locale = i18n.language === 'hi' ? 'hi-IN' : 'en-IN';
  const formatDate = useFormatDate();
  const marks = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  // Scheduled or published is told at the time the list opened (it is re-read after every change).
  const [now] = useState(Date.now);

  const confirmDelete = () => {
    if (!toDelete) return;
    remove.mutate(toDelete.id, {
      onSuccess: (r) => {
        notifySuccess(serverText(t, r.msg));
        setToDelete(null);
      },
      onError: () => setToDelete(null),
    });
  };

  if (list.isPending) return <Loader aria-label={t('sets.list.loading')} />;
  if (list.isError) return <Alert color="red">{t('sets.list.loadFailed')}</Alert>;
  if (list.data.length === 0) return <Text c="dimmed">{t('sets.list.empty')}</Text>;
  return (
    <>
      <Table.ScrollContainer minWidth={980}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('sets.tabs.list')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('form.label')}</Table.Th>
              <Table.Th>{t('sets.list.kind')}</Table.Th>
              <Table.Th>{t('sets.list.questions')}</Table.Th>
              <Table.Th>{t('form.tm')}</Table.Th>
              <Table.Th>{t('sets.list.duration')}</Table.Th>
              <Table.Th>{t('form.pts')}</Table.Th>
              <Table.Th>{t('sets.list.state')}</Table.Th>
              <Table.Th>{t('sets.list.version')}</Table.Th>
              <Table.Th>{t('sets.list.taken')}</Table.Th>
              <Table.Th w={128}>{t('list.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((s) => {
              const state = setState(s, now);
              return (
                <Table.Tr key={s.id}>
                  <Table.Td fw={500}>{s.l}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      {s.isM ? t('list.mock') : t('list.practice')}
                      {s.free && (
                        <Badge color="green" variant="light" size="sm">
                          {t('list.free')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{setQuestionIds(s).length}</Table.Td>
                  <Table.Td>{marks.format(totalMarks(s))}</Table.Td>
                  <Table.Td>{t('sets.list.minutes', { n: s.dur > 0 ? s.dur : DEFAULT_EXAM_SECONDS / 60 })}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(s.pts * 60_000)}</Table.Td>
                  <Table.Td>
                    <Badge color={STATE_COLOR[state]} variant="light">
                      {t(`sets.state.${state}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{s.version ?? 1}</Table.Td>
                  <Table.Td>{s.taken ?? 0}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <ExportMenu what={{ qsid: s.id }} />
                      <Tooltip label={t('list.edit')}>
                        <ActionIcon variant="subtle" aria-label={t('list.edit')} onClick={() => onEdit(s.id)}>
                          <IconPencil size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label={t('list.delete')}>
                        <ActionIcon variant="subtle" color="red" aria-label={t('list.delete')} onClick={() => setToDelete(s)}>
                          <IconTrash size={18} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={toDelete !== null}
        title={t('sets.list.deleteTitle')}
        confirmLabel={t('list.delete')}
        busy={remove.isPending}
        onClose={() => setToDelete(null)}
        onConfirm={confirmDelete}
      >
        {t('sets.list.deleteText', { label: toDelete?.l ?? '' })}
      </ConfirmDialog>
    </>
  );
}
