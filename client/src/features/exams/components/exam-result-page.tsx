import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Accordion, Alert, Button, Card, Container, Group, Loader, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconClockExclamation, IconDeviceMobile, IconHourglass, IconInfoCircle, IconLock, IconPrinter } from '@tabler/icons-react';
import { useEffect, useId, useMemo, useState, useSyncExternalStore } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
// KaTeX's styles for the formulas in question text (server-rendered; components/formula-styles).
import '@/components/formula-styles';
import { paths } from '@/config/paths';
import { keepReceipt } from '@/db/attempts/receipts';
import { useReplica } from '@/db/learner/replica-context';
import { serverClock } from '@/db/sync/server-clock';
import { getSyncStatus, subscribeSyncStatus } from '@/db/sync/sync-status';
import { api } from '@/lib/api-client';
import { useEntitlement } from '../hooks/use-allowance';
import { type StoredDist, useResultData } from '../hooks/use-result-data';
import { isLocked } from '../lib/allowance';
import { attemptLanguage, type QuestionLanguage } from '../lib/attempt-language';
import { judge, scoreLocally } from '../lib/local-score';
import { durationText } from '../lib/duration';
import { formatMarks } from '../lib/marks';
import { provisionalRank } from '../lib/result-analysis';
import { buildResultView, type ResultView } from '../lib/result-view';
import { setText } from '@pm/protocol/set-text';
import { type Attempt, partsOf } from '../lib/test-engine';
import { AnswerFileCard } from './answer-file-card';
import { ResultAnalysisCard } from './result-analysis-card';
import { SmsAnswerCard } from './sms-answer-card';
import classes from './exam-result-page.module.css';
import { Mark, ResultQuestionCard } from './result-question';
import { SubmissionReceipt } from './submission-receipt';
import { formatDate } from '@/lib/intl-format';

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

type RankFigures = { rank: number; of: number; percentile: number };

/** A rank as the summary shows it: with its percentile, or alone when no one else is ranked yet. */
function rankText(r: RankFigures, t: TFunction<'exam'>): string {
  return r.of > 1 ? t('rankOf', { rank: r.rank, of: r.of, percentile: r.percentile.toFixed(1) }) : t('rankAlone', { rank: r.rank, of: r.of });
}

function ResultBody({ view, dist, lang, onLang }: { view: ResultView; dist: StoredDist | null; lang: QuestionLanguage; onLang: (lang: QuestionLanguage) => void }) {
  const { t, i18n } = useTranslation('exam');
  const fmt = (n: number) => formatMarks(n, i18n.language);
  const online = useSyncExternalStore(subscribeSyncStatus, () => getSyncStatus().online);
  // A practice attempt has no rank of its own (the learner's first attempt holds it).
  const rank = useRank(view.qsid, online && view.fromServer && !view.practice);
  // Until the server's rank is here: the rank in the set's published distribution, worked out on
  // this device (docs/live-tests.md "Provisional rank on the device").
  const provisional = rank ? null : provisionalRank(view, dist);
  const languageLabel = useId();
  const submitted = formatDate(view.submittedAt, i18n.language);
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
          <Fact label={t('timeTaken')} value={durationText(view.timeS, t)} testId="time-taken" seconds={view.timeS} />
          {/* A percentile compares with others: with one ranked learner there is no one to compare
              with, so only the rank shows (docs/exams.md "The exam screens", Result). */}
          {rank && <Fact label={t('rank')} value={rankText(rank, t)} testId="rank" />}
          {provisional && <Fact label={t('provisionalRank')} value={rankText(provisional, t)} testId="rank-provisional" />}
        </SimpleGrid>
        {provisional && dist && (
          <Text size="xs" c="dimmed" mt="xs" data-testid="rank-provisional-note">
            {t('provisionalNote', { n: dist.n })}
          </Text>
        )}
        <Group mt="sm" gap="xs">
          {view.pending > 0 && (
            <Mark kind="pending" icon={<IconHourglass size={14} aria-hidden />}>
              {t('awaitingCount', { count: view.pending })}
            </Mark>
          )}
          {view.late && (
            <Mark kind="chosen" icon={<IconClockExclamation size={14} aria-hidden />}>
              {t('late')}
            </Mark>
          )}
          {view.practice && (
            <Mark kind="info" icon={<IconInfoCircle size={14} aria-hidden />} testId="practice-attempt">
              {t('practiceAttempt')}
            </Mark>
          )}
          {!view.fromServer && (
            <Mark kind="info" icon={<IconDeviceMobile size={14} aria-hidden />}>
              {t('practiceLocal')}
            </Mark>
          )}
        </Group>
      </Card>
      <ResultAnalysisCard view={view} />
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
      <Group justify="space-between" className={classes.noPrint} wrap="wrap">
        <Group gap="xs">
          <Text size="sm" id={languageLabel}>
            {t('questionLanguage')}
          </Text>
          <SegmentedControl
            size="xs"
            value={lang}
            onChange={(v) => onLang(v === 'hi' ? 'hi' : 'en')}
            aria-labelledby={languageLabel}
            data={[
              { value: 'en', label: 'English' },
              { value: 'hi', label: 'हिन्दी' },
            ]}
          />
        </Group>
        <Button variant="default" leftSection={<IconPrinter size={16} aria-hidden />} onClick={() => window.print()}>
          {t('print')}
        </Button>
      </Group>
      {/* Collapsed parts stay in the page (hidden by style only), so that the printed view shows
          every question (exam-result-page.module.css). */}
      <Accordion
        multiple
        defaultValue={view.parts.map((p) => p.key)}
        variant="separated"
        order={3}
        keepMounted
        keepMountedMode="display-none"
        classNames={{ panel: classes.panel, chevron: classes.panelChevron, item: classes.item }}
      >
        {view.parts.map((p) => (
          <Accordion.Item key={p.key} value={p.key}>
            <Accordion.Control>
              <Group justify="space-between" pr="sm" component="span">
                <Text fw={600} component="span">
                  {p.label}
                </Text>
                <Text size="sm" component="span" data-testid={`part-marks-${p.key}`}>
                  {t('outOf', { got: fmt(p.marks), of: fmt(p.outOf) })} ·{' '}
                  <span data-testid={`part-time-${p.key}`} data-seconds={p.timeS}>
                    {durationText(p.timeS, t)}
                  </span>
                </Text>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="md">
                {p.questions.map((o) => (
                  <ResultQuestionCard key={o.qid} outcome={o} lang={lang} />
                ))}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}

/**
 * In place of the result of a locked attempt (docs/payments.md "Without a plan"): taken beyond
 * the plan, stored on the server, and opened (result, answers, rank) when a plan covers it.
 */
function LockedResult() {
  const { t } = useTranslation('exam');
  return (
    <Alert color="orange" icon={<IconLock size={18} aria-hidden />} title={t('allowance.locked')} data-testid="result-locked">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{t('allowance.lockedText')}</Text>
        <Button component={Link} to={paths.plan}>
          {t('allowance.buyPlan')}
        </Button>
      </Stack>
    </Alert>
  );
}

function Fact({ label, value, testId, seconds }: { label: string; value: string; testId?: string; seconds?: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId} data-seconds={seconds}>
        {value}
      </Text>
    </div>
  );
}

/**
 * What the page says while the submitted attempt has no result: before a live test's result time,
 * that its results open for everyone then (docs/live-tests.md "Live tests"), whether or not the
 * attempt has reached the server; else that it comes once scored, or once the device is online.
 */
function pendingText(live: { res: number } | null, online: boolean, t: TFunction<'exam'>, lang: string): string {
  const later = resultsLaterAt(live, lang);
  if (later) return t('live.resultsAt', { time: later });
  return online ? t('resultScoring') : t('resultPending');
}

/** A live test's result time (formatted) while it is still to come by the server's clock, else undefined. */
function resultsLaterAt(live: { res: number } | null, lang: string): string | undefined {
  return live && serverClock.now() < live.res ? formatDate(live.res, lang) : undefined;
}

/**
 * Exam result (exam-result/{qsid}/{is_submit_ans}; docs/exams.md "The result page"). Submitting already happened on the
 * device; the result is scored on the server and replicates back (ARCHITECTURE decision 4).
 * Until it arrives the page says the test is submitted and the result will appear when the
 * device is online. A practice set carries its answers, so its result shows at once, offline.
 * A locked attempt (taken beyond the plan) shows no result until a plan covers it
 * (docs/payments.md "Without a plan").
 */
export default function ExamResultPage() {
  const { t, i18n } = useTranslation('exam');
  const { qsid = '', isSubmitAns } = useParams();
  const replica = useReplica();
  const { data, loading } = useResultData(qsid);
  const online = useSyncExternalStore(subscribeSyncStatus, () => getSyncStatus().online);
  // The questions show in the language the learner read the attempt in (remembered on this device
  // by the test screen), else in the interface language, until the learner picks another here.
  const [picked, setPicked] = useState<QuestionLanguage | null>(null);

  // With is_submit_ans "true" the stored answers are submitted (a test left open, e.g.
  // closed by a crash just as it was submitted).
  const inProgress = data?.attempts.find((a) => a.status === 'IN_PROGRESS');
  const setLabel = data?.set ? setText(data.set, i18n.language).l : qsid;
  useEffect(() => {
    if (isSubmitAns !== 'true' || !inProgress || !replica) return;
    const deviceAt = Date.now();
    const at = Math.round(deviceAt + serverClock.offset());
    void replica.db.test_summary
      .findOne(inProgress.id)
      .exec()
      .then((d) => d?.incrementalPatch({ status: 'SUBMITTED', submittedAt: at, updatedAt: at }))
      // The receipt of this submission too (docs/exams.md "Submission receipt"), over what replication will push.
      .then((d) => d && keepReceipt(replica.db, replica.journal.view(d.toJSON() as Attempt), { setLabel, deviceAt }))
      .catch((err: unknown) => console.error('submitting the stored answers failed', err));
  }, [isSubmitAns, inProgress, replica, setLabel]);

  const latest = data?.attempts.find((a) => a.status === 'SUBMITTED');
  // An attempt the server stored past the plan's allowance is locked (docs/payments.md "Without a
  // plan"): no result, answers or rank until a plan covers it, and none worked out here either
  // (a practice set's questions carry their answers; they are not shown for it).
  const entitlement = useEntitlement().data ?? null;
  const locked = !!latest && isLocked(entitlement, latest.id);
  const view = useMemo(() => {
    if (!data) return null;
    const shown = data.attempts.find((a) => a.status === 'SUBMITTED');
    if (shown && isLocked(entitlement, shown.id)) return null;
    return buildResultView(data, i18n.getFixedT(i18n.language, 'exam'), judge, scoreLocally, i18n.language);
  }, [data, entitlement, i18n]);
  const lang: QuestionLanguage = picked ?? (latest && attemptLanguage(latest.id)) ?? (i18n.language === 'hi' ? 'hi' : 'en');
  // docs/answer-file.md: the latest submission has no result from the server yet (it has not reached it;
  // a locked one has).
  const unsent = !!latest && !!data && !locked && !data.results.some((r) => r.attemptId === latest.id);
  // The server refused to store it for want of a plan (402): it stays here and goes up once a plan covers it.
  const planRefused = useSyncExternalStore(subscribeSyncStatus, () => getSyncStatus().planRequired);
  const needsPlan = unsent && !!latest && !!planRefused?.includes(latest.id) && data?.set?.free !== true;

  return (
    <Container size="lg" py="lg" className={classes.page}>
      <Stack>
        <Title order={2}>
          {t('resultTitle')}
          {data?.set ? `: ${setText(data.set, i18n.language).l}` : ''}
        </Title>
        {needsPlan && (
          <Alert color="orange" icon={<IconLock size={18} aria-hidden />} data-testid="result-needs-plan">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{t('allowance.uploadNeedsPlan')}</Text>
              <Button component={Link} to={paths.plan}>
                {t('allowance.buyPlan')}
              </Button>
            </Stack>
          </Alert>
        )}
        {/* With no data, sending the answers by SMS is what the learner can do now: first in sight on a phone. */}
        {unsent && latest && data?.detail && <SmsAnswerCard attemptId={latest.id} detail={data.detail} />}
        {latest && (
          <SubmissionReceipt
            attemptId={latest.id}
            serverReceipt={data?.results.find((r) => r.attemptId === latest.id)?.receipt}
            resultsOpenAt={resultsLaterAt(data?.detail?.live ?? null, i18n.language)}
          />
        )}
        {unsent && latest && <AnswerFileCard attemptId={latest.id} />}
        {loading ? (
          <Loader aria-label={t('loading')} />
        ) : locked ? (
          <LockedResult />
        ) : view ? (
          <ResultBody view={view} dist={data?.dist ?? null} lang={lang} onLang={setPicked} />
        ) : needsPlan ? null : latest ? (
          <Alert color="blue" icon={online ? <Loader size="xs" /> : undefined} data-testid="result-pending">
            {pendingText(data?.detail?.live ?? null, online, t, i18n.language)}
          </Alert>
        ) : (
          <Alert color="gray">{t('noAttempt')}</Alert>
        )}
        {data?.detail && partsOf(data.detail).length === 0 && <Text>{t('notConfigured')}</Text>}
      </Stack>
    </Container>
  );
}
