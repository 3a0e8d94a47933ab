import { Button, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type Attempt, countStates, type Part } from '../lib/test-engine';
import { partLabel } from './question-palette';
import type { SetText } from '../../../../../sync-protocol/src/set-text';

/** The summary before submitting (NTA): per part the five counts, then a confirmation. */
export function SubmitSummary({
  opened,
  parts,
  answers,
  onCancel,
  onConfirm,
  busy,
  text,
}: {
  /** The set's names in the learner's language (set-text.ts). */
  text?: Pick<SetText, 'part'>;
  opened: boolean;
  parts: Part[];
  answers: Attempt['answers'];
  onCancel: () => void;
  onConfirm: () => void;
  busy: boolean;
}) {
  const { t } = useTranslation('exam');
  return (
    <Modal opened={opened} onClose={onCancel} title={t('summaryTitle')} size="lg" centered zIndex={500}>
      <Stack>
        <ScrollArea>
          <Table striped withTableBorder miw={480}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('section')}</Table.Th>
                <Table.Th>{t('state.answered')}</Table.Th>
                <Table.Th>{t('state.notAnswered')}</Table.Th>
                <Table.Th>{t('state.marked')}</Table.Th>
                <Table.Th>{t('state.answeredMarked')}</Table.Th>
                <Table.Th>{t('state.notVisited')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parts.map((p) => {
                const c = countStates(p.qids, answers);
                return (
                  <Table.Tr key={p.key}>
                    <Table.Td>{partLabel(p, t, text)}</Table.Td>
                    <Table.Td>{c.ANSWERED}</Table.Td>
                    <Table.Td>{c.VISITED}</Table.Td>
                    <Table.Td>{c.MARKED}</Table.Td>
                    <Table.Td>{c.ANSWERED_MARKED}</Table.Td>
                    <Table.Td>{c.NOT_VISITED}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
        <Text size="sm">{t('summaryNote')}</Text>
        <Text fw={600}>{t('summaryConfirm')}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('backToTest')}
          </Button>
          <Button color="green" onClick={onConfirm} loading={busy}>
            {t('submitTest')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
