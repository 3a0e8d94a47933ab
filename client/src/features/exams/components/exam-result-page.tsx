import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Accordion, Alert, Badge, Card, Container, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { TestQuestion } from '../../../../../sync-protocol/src/sync/qs-detail';
import { RichHtml } from '../../../components/rich-html';
// KaTeX's styles for the formulas in question text (server-rendered; components/formula-styles).
import '../../../components/formula-styles';
import { useReplica } from '../../../db/replica-context';
import { serverClock } from '../../../db/server-clock';
import { getSyncStatus, subscribeSyncStatus } from '../../../db/sync-status';
import { api } from '../../../lib/api-client';
import { useEntitlement } from '../hooks/use-allowance';
import { useResultData } from '../hooks/use-result-data';
import { isOverLimit } from '../lib/allowance';
import { judge, scoreLocally } from '../lib/local-score';
import { formatMarks } from '../lib/marks';
import { buildResultView, type QuestionOutcome, type ResultView } from '../lib/result-view';
import { partsOf } from '../lib/test-engine';
import { localized } from './question-view';

function useRank(qsid: string, enabled: boolean) {
  const [rank, setRank] = useState<{ rank: number; of: number; percentile: number } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let stop = false;
    api<{ success: boolean; rank: number; of: number; percentile: number }>('/question/getRank', { query: { qsid }, background: true, silent: true })
      .then((r) => !stop && r.success && setRank({ rank: r.rank, of: r.of, percentile: r.percentile }))
      .catch(() => undefined);
    return () => {
      stop = true;
    };
  }, [qsid, enabled]);
  return enabled ? rank : null;
}

const VERDICT_COLOR: Record<QuestionOutcome['verdict'], string> = { correct: 'green', incorrect: 'red', unanswered: 'gray', pending: 'yellow' };

function answerText(q: TestQuestion | undefined, keys: string[] | string | null, lang: string): string {
  if (keys === null || keys === undefined || (Array.isArray(keys) && keys.length === 0) || keys === '') return '—';
  if (!q || (q.qt !== 'mcq1' && q.qt !== 'mcq2')) return Array.isArray(keys) ? keys.join(' / ') : keys;
  const ops = localized(q, lang).ops;
  const list = Array.isArray(keys) ? keys : [keys];
  return list.map((k) => (ops[k] ? `${k.toUpperCase()}. ${ops[k]!.replace(/<[^>]*>/g, '')}` : k)).join('; ');
}

function seconds(ms: number | undefined, t: (k: 'secondsShort', o: { s: number }) => string) {
  return t('secondsShort', { s: Math.round((ms ?? 0) / 1000) });
}

function ResultBody({ view, lang }: { view: ResultView; lang: string }) {
  const { t, i18n } = useTranslation('exam');
  const fmt = (n: number) => formatMarks(n, i18n.language);
  const online = useSyncExternalStore(subscribeSyncStatus, () => getSyncStatus().online);
  // A practice attempt has no rank of its own (the learner's first attempt holds it).
  const rank = useRank(view.qsid, online && view.fromServer && !view.practice);
  const submitted = new Intl.DateTimeFormat(i18n.language === 'hi' ? 'hi-IN' : 'en-IN', { dateStyle: 'medium', timeStyle: 'short' }).format(view.submittedAt);
  return (
    <Stack>
      <Card withBorder radius="md" padding="lg">
        <Title order={3} size="h4" mb="sm">
          {t('summary')}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} data-testid="result-summary">
          <Fact label={t('submittedOn')} value={submitted} />
          <Fact label={t('marksObtained')} value={t('outOf', { got: fmt(view.totalMarks), of: fmt(view.total) })} testId="total-marks" />
          <Fact label={t('totalAnswers')} value={String(view.answered)} />
          <Fact label={t('rightAnswers')} value={String(view.right)} />
          <Fact label={t('wrongAnswers')} value={String(view.wrong)} />
          <Fact label={t('accuracy')} value={view.right + view.wrong > 0 ? `${Math.round((100 * view.right) / (view.right + view.wrong))}%` : '—'} />
          <Fact label={t('timeTaken')} value={t('minutesSeconds', { m: Math.floor(view.timeMs / 60000), s: Math.round((view.timeMs % 60000) / 1000) })} />
          {rank && <Fact label={t('rank')} value={t('rankOf', { rank: rank.rank, of: rank.of, percentile: rank.percentile.toFixed(1) })} />}
        </SimpleGrid>
        <Group mt="sm" gap="xs">
          {view.pending > 0 && <Badge color="yellow">{t('awaitingCount', { count: view.pending })}</Badge>}
          {view.late && <Badge color="orange">{t('late')}</Badge>}
          {view.practice && (
            <Badge color="grape" data-testid="practice-attempt">
              {t('practiceAttempt')}
            </Badge>
          )}
          {!view.fromServer && <Badge color="blue">{t('practiceLocal')}</Badge>}
        </Group>
      </Card>
      {view.parts.length > 1 && (
        <Card withBorder radius="md" padding="lg">
          <Title order={3} size="h4" mb="sm">
            {t('marksBySection')}
          </Title>
          <BarChart
            h={220}
            data={view.parts.map((p) => ({ part: p.label, [t('marks')]: p.marks, [t('maximum')]: p.outOf }))}
            dataKey="part"
            series={[
              { name: t('marks'), color: 'indigo.6' },
              { name: t('maximum'), color: 'gray.4' },
            ]}
          />
        </Card>
      )}
      <Accordion multiple defaultValue={view.parts.map((p) => p.key)} variant="separated">
        {view.parts.map((p) => (
          <Accordion.Item key={p.key} value={p.key}>
            <Accordion.Control>
              <Group justify="space-between" pr="sm">
                <Text fw={600}>{p.label}</Text>
                <Text size="sm" data-testid={`part-marks-${p.key}`}>
                  {t('outOf', { got: fmt(p.marks), of: fmt(p.outOf) })} · {seconds(p.timeMs, t)}
                </Text>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="md">
                {p.questions.map((o) => (
                  <Card key={o.qid} withBorder padding="sm" data-testid={`outcome-${o.qid}`}>
                    <Group justify="space-between" mb={4}>
                      <Text fw={600}>{t('questionN', { n: o.n })}</Text>
                      <Group gap="xs">
                        <Badge color={VERDICT_COLOR[o.verdict]} data-testid="verdict">
                          {t(`verdict.${o.verdict}`)}
                        </Badge>
                        <Text size="sm">{t('marksGained', { mg: o.mg === null ? '—' : fmt(o.mg) })}</Text>
                        <Text size="sm" c="dimmed">
                          {seconds(o.timeMs, t)}
                        </Text>
                      </Group>
                    </Group>
                    {o.question && <RichHtml html={localized(o.question, lang).q} />}
                    <Table mt="xs" withRowBorders={false} verticalSpacing={2}>
                      <Table.Tbody>
                        <Table.Tr>
                          <Table.Td w={160} c="dimmed">
                            {t('yourAnswer')}
                          </Table.Td>
                          <Table.Td>{answerText(o.question, o.ua, lang)}</Table.Td>
                        </Table.Tr>
                        <Table.Tr>
                          <Table.Td c="dimmed">{t('correctAnswer')}</Table.Td>
                          <Table.Td>{o.question?.qt === 's' ? t('modelAnswer', { text: (o.ca ?? []).join(' ') || '—' }) : answerText(o.question, o.ca, lang)}</Table.Td>
                        </Table.Tr>
                      </Table.Tbody>
                    </Table>
                  </Card>
                ))}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

/**
 * Exam result (spec §2, exam-result/{qsid}/{is_submit_ans}). Submitting already happened on the
 * device; the result is scored on the server and replicates back (ARCHITECTURE decision 4).
 * Until it arrives the page says the test is submitted and the result will appear when the
 * device is online. A practice set carries its answers, so its result shows at once, offline.
 */
export default function ExamResultPage() {
  const { t, i18n } = useTranslation('exam');
  const { qsid = '', isSubmitAns } = useParams();
  const replica = useReplica();
  const { data, loading } = useResultData(qsid);
  const online = useSyncExternalStore(subscribeSyncStatus, () => getSyncStatus().online);
  const lang = i18n.language === 'hi' ? 'hi' : 'en';

  // Spec §2: with is_submit_ans "true" the stored answers are submitted (a test left open, e.g.
  // closed by a crash just as it was submitted).
  const inProgress = data?.attempts.find((a) => a.status === 'IN_PROGRESS');
  useEffect(() => {
    if (isSubmitAns !== 'true' || !inProgress || !replica) return;
    void replica.db.test_summary
      .findOne(inProgress.id)
      .exec()
      .then((d) => d?.incrementalPatch({ status: 'SUBMITTED', submittedAt: serverClock.now(), updatedAt: serverClock.now() }));
  }, [isSubmitAns, inProgress, replica]);

  const view = useMemo(() => (data ? buildResultView(data, i18n.getFixedT(i18n.language, 'exam'), judge, scoreLocally) : null), [data, i18n]);
  const latest = data?.attempts.find((a) => a.status === 'SUBMITTED');
  // Issue 18 §4: an attempt the server found past the plan's allowance is kept and scored, and
  // the learner is told so.
  const entitlement = useEntitlement().data ?? null;
  const overLimit = !!latest && isOverLimit(entitlement, latest.id);

  return (
    <Container size="lg" py="lg">
      <Stack>
        <Title order={2}>
          {t('resultTitle')}
          {data?.set ? `: ${data.set.l}` : ''}
        </Title>
        {overLimit && (
          <Alert color="orange" data-testid="over-limit">
            {t('allowance.overLimit')}
          </Alert>
        )}
        {loading ? (
          <Loader aria-label={t('loading')} />
        ) : view ? (
          <ResultBody view={view} lang={lang} />
        ) : latest ? (
          <Alert color="blue" icon={online ? <Loader size="xs" /> : undefined} data-testid="result-pending">
            {online ? t('resultScoring') : t('resultPending')}
          </Alert>
        ) : (
          <Alert color="gray">{t('noAttempt')}</Alert>
        )}
        {data?.detail && partsOf(data.detail).length === 0 && <Text>{t('notConfigured')}</Text>}
      </Stack>
    </Container>
  );
}
