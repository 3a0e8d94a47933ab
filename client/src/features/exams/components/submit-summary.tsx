import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { type Attempt, countStates, type Part, type PaletteState } from '../lib/test-engine';
import { partLabel } from './question-palette';
import type { SetText } from '@pm/protocol/set-text';

/** The five counts, in the NTA summary's order. */
const COLUMNS = [
  ['ANSWERED', 'state.answered'],
  ['VISITED', 'state.notAnswered'],
  ['MARKED', 'state.marked'],
  ['ANSWERED_MARKED', 'state.answeredMarked'],
  ['NOT_VISITED', 'state.notVisited'],
] as const satisfies readonly (readonly [PaletteState, string])[];

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
  // A phone (below 36em) has no room for six columns: each part is a short list of its counts.
  const narrow = useMediaQuery('(max-width: 36em)');
  const rows = parts.map((p) => ({ part: p, counts: countStates(p.qids, answers) }));
  return (
    <Modal opened={opened} onClose={onCancel} title={t('summaryTitle')} size="lg" centered zIndex={500} fullScreen={narrow}>
      <Stack>
        {narrow ? (
          <Stack gap="sm" data-testid="summary-parts">
            {rows.map(({ part, counts }) => (
              <section key={part.key} aria-label={partLabel(part, t)}>
                <Text fw={600} size="sm">
                  {partLabel(part, t)}
                </Text>
                <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto', gap: '2px 12px', fontSize: 'var(--mantine-font-size-sm)' }}>
                  {COLUMNS.map(([state, label]) => (
                    <div key={state} style={{ display: 'contents' }}>
                      <dt>{t(label)}</dt>
                      <dd style={{ margin: 0, fontWeight: 600, textAlign: 'end' }}>{counts[state]}</dd>
                    </div>
                  ))}
                </dl>
              </section>
            ))}
          </Stack>
        ) : (
          <Table striped withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('section')}</Table.Th>
                {COLUMNS.map(([state, label]) => (
                  <Table.Th key={state}>{t(label)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map(({ part, counts }) => (
                <Table.Tr key={part.key}>
                  <Table.Td>{partLabel(part, t, text)}</Table.Td>
                  {COLUMNS.map(([state]) => (
                    <Table.Td key={state}>{counts[state]}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
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
