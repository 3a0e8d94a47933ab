import { Card, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { durationText } from '../lib/duration';
import { formatMarks } from '../lib/marks';
import { analyseResult } from '../lib/result-analysis';
import type { ResultView } from '../lib/result-view';

/**
 * The analysis the result's summary does not give, worked out on the device (docs/live-tests.md
 * "Provisional rank on the device"): marks lost to negative marking, and per section the right and
 * wrong answers, accuracy, marks lost and time per answered question. The table scrolls sideways
 * on a narrow phone rather than squeezing its numbers.
 */
export function ResultAnalysisCard({ view }: { view: ResultView }) {
  const { t, i18n } = useTranslation('exam');
  const analysis = useMemo(() => analyseResult(view), [view]);
  const fmt = (n: number) => formatMarks(n, i18n.language);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="result-analysis">
      <Title order={3} size="h4" mb="sm">
        {t('analysis.title')}
      </Title>
      <Text size="sm" mb="sm">
        {t('analysis.marksLost')}:{' '}
        <Text span fw={700} data-testid="marks-lost">
          {fmt(analysis.lost)}
        </Text>
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table striped withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('section')}</Table.Th>
              <Table.Th>{t('analysis.right')}</Table.Th>
              <Table.Th>{t('analysis.wrong')}</Table.Th>
              <Table.Th>{t('analysis.accuracy')}</Table.Th>
              <Table.Th>{t('analysis.lost')}</Table.Th>
              <Table.Th>{t('analysis.perAnswered')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {analysis.parts.map((p) => (
              <Table.Tr key={p.key} data-testid={`analysis-${p.key}`}>
                <Table.Td>{p.label}</Table.Td>
                <Table.Td>{p.right}</Table.Td>
                <Table.Td>{p.wrong}</Table.Td>
                <Table.Td>{p.accuracy === null ? '—' : `${p.accuracy}%`}</Table.Td>
                <Table.Td>{fmt(p.lost)}</Table.Td>
                <Table.Td>{p.perAnswered === null ? '—' : durationText(p.perAnswered, t)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
