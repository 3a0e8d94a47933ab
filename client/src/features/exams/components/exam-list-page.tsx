import { Alert, Anchor, Badge, Button, Card, Container, Group, Progress, SimpleGrid, Skeleton, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconLock, IconSearch } from '@tabler/icons-react';
import { memo, startTransition, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useGuestReplica } from '@/db/learner/guest';
import { getStorageStatus, subscribeStorageStatus } from '@/db/learner/storage-status';
import { cachedMedia } from '@/lib/media-precache';
import { useSession } from '@/hooks/use-session';
import { useStoreInTransition } from '@/hooks/use-store-in-transition';
import { type AllowanceData, useAllowance } from '../hooks/use-allowance';
import { type Availability, useExamList, type ExamListItem } from '../hooks/use-exam-list';
import { type Allowance, type Gate, gateOf, isLockedSet } from '../lib/allowance';
import { formatMarks } from '../lib/marks';
import { setText, setTotalMarks } from '@pm/protocol/set-text';
import { durationSeconds } from '../lib/test-engine';
import { ExamTagFilter, matchesFilter, NO_FILTER, type TagFilter, useTagNames } from './exam-tag-filter';
import { type MyResultRow, useMyResults } from '../hooks/use-my-results';
import { matchesSearch } from '../lib/search';
import { SetBadges } from './set-badges';
import { LostAttemptsNotice, StorageNotice } from './storage-notices';
import { OpenSharedTest } from './open-shared-test';
import { LiveBadge } from './live-badge';
import { formatDate } from '@/lib/intl-format';
import { UNNAMED_PLAN } from '@pm/protocol/payment';

const BADGE_COLOR: Record<Availability, string> = { onDevice: 'teal', downloading: 'gray', changed: 'orange' };

/** One term and value of a card's facts. */
function Fact({ label, value }: { label: string; value: string }) {
  return (
    <>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0}>
        {value}
      </Text>
    </>
  );
}

/**
 * What the learner's plan leaves them (docs/payments.md "Without a plan"), from the replica, so it is right offline:
 * the plan and its end date and what is left of each kind, or that there is no plan in force.
 */
export function AllowanceSummary({ allowance }: { allowance: Allowance }) {
  const { t, i18n } = useTranslation('exam');
  const { plan } = allowance;
  if (!plan) {
    return (
      <Alert color="gray" data-testid="allowance-summary">
        <Group gap="sm">
          <Text size="sm">{t('allowance.noPlan')}</Text>
          <Anchor component={Link} to={paths.plan} size="sm">
            {t('allowance.seePlans')}
          </Anchor>
        </Group>
      </Alert>
    );
  }
  const lang = i18n.language === 'hi' ? 'hi' : 'en';
  const date = formatDate(plan.endsAt, lang, 'date');
  // A plan by its name, never its internal code (docs/payments.md).
  const name = (plan.name ?? UNNAMED_PLAN)[lang] || (plan.name ?? UNNAMED_PLAN).en;
  const { mock, practice } = allowance;
  return (
    <Card withBorder radius="md" padding="sm" data-testid="allowance-summary">
      <Group gap="lg" wrap="wrap">
        <Text fw={600}>{t('allowance.planUntil', { plan: name, date })}</Text>
        <Text size="sm" data-testid="mock-left">
          {mock.left === null ? t('allowance.unlimitedMock') : t('allowance.mockLeft', { n: mock.left })}
        </Text>
        <Text size="sm" data-testid="practice-left">
          {practice.left === null ? t('allowance.unlimitedPractice') : t('allowance.practiceLeft', { n: practice.left })}
        </Text>
      </Group>
    </Card>
  );
}

/**
 * The images of the listed sets that are in the media cache (docs/exams.md "Two tabs, storage and eviction": a set is complete on
 * the device only with its images); null where the browser has no Cache Storage (nothing to
 * tell then). Checked again whenever images were stored.
 */
function useCachedMedia(items: ExamListItem[] | undefined): Set<string> | null {
  const mediaVersion = useStoreInTransition(subscribeStorageStatus, () => getStorageStatus().mediaVersion);
  const urls = useMemo(() => [...new Set((items ?? []).flatMap((i) => i.media))], [items]);
  const [cached, setCached] = useState<Set<string> | null>(null);
  useEffect(() => {
    if (typeof caches === 'undefined') return;
    let stop = false;
    // As a transition, and only when the answer differs: it re-draws every card (docs/benchmarks.md "bench:lighthouse").
    void cachedMedia(urls).then((found) => !stop && startTransition(() => setCached((old) => (old && sameMembers(old, found) ? old : found))));
    return () => {
      stop = true;
    };
  }, [urls, mediaVersion]);
  return cached;
}

const sameMembers = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((u) => b.has(u));

/** Whether a set may start now; until the allowance has been read nothing is blocked (the intro page checks again at start). */
function gateFor(set: ExamListItem['set'], access: AllowanceData | undefined): Gate {
  return access ? gateOf(set, access.allowance, access.resumable.has(set.id)) : { ok: true };
}

/**
 * A paid set the plan does not cover: its questions are not sent to this device until a plan
 * does (docs/payments.md "Without a plan"), so it is locked, not "downloading".
 */
const lockedItem = (item: ExamListItem, access: AllowanceData | undefined) => isLockedSet(item.availability !== 'downloading', gateFor(item.set, access));

/** The card's badge: where the set's questions and images stand on this device. */
function AvailabilityBadge({ item, complete, locked }: { item: ExamListItem; complete: boolean; locked: boolean }) {
  const { t } = useTranslation('exam');
  const persisted = useStoreInTransition(subscribeStorageStatus, () => getStorageStatus().verdict?.persisted === true);
  const { t: ti } = useTranslation('exam-integrity');
  if (locked) {
    return (
      <Badge color="gray" variant="light" leftSection={<IconLock size={12} aria-hidden />} data-testid="availability" data-locked>
        {t('allowance.lockedSet')}
      </Badge>
    );
  }
  if (item.availability === 'changed') {
    return (
      <Tooltip label={t('changedOnServerHint')} multiline w={260} events={{ hover: true, focus: true, touch: true }}>
        <Badge color={BADGE_COLOR.changed} variant="dot" data-testid="availability" tabIndex={0}>
          {t('changedOnServer')}
        </Badge>
      </Tooltip>
    );
  }
  if (item.availability === 'onDevice' && !complete) {
    return (
      <Tooltip label={ti('storage.incompleteHint')} multiline w={260} events={{ hover: true, focus: true, touch: true }}>
        <Badge color="orange" variant="dot" data-testid="availability" tabIndex={0}>
          {ti('storage.incomplete')}
        </Badge>
      </Tooltip>
    );
  }
  // Complete, and the browser promised to keep it: safe from eviction too.
  const safe = item.availability === 'onDevice' && persisted;
  return (
    <Badge color={BADGE_COLOR[item.availability]} variant={safe ? 'light' : 'dot'} data-testid="availability" data-safe={safe || undefined}>
      {safe ? ti('storage.safe') : item.availability === 'onDevice' ? t('onDevice') : t('downloading')}
    </Badge>
  );
}

const CARD_STYLE = { contentVisibility: 'auto', containIntrinsicSize: 'auto 250px' } as const;

/** Memoised: its item keeps its identity while the set and its questions are unchanged (use-exam-list). */
const ExamCard = memo(function ExamCard({
  item,
  access,
  complete,
  taken,
}: {
  item: ExamListItem;
  access: AllowanceData | undefined;
  complete: boolean;
  /** The learner's latest submitted attempt at the set (docs/exams.md "My results"). */
  taken: MyResultRow | undefined;
}) {
  const { t, i18n } = useTranslation('exam');
  const titleId = useId();
  const reasonId = useId();
  const { set } = item;
  const gate = gateFor(set, access);
  const locked = lockedItem(item, access);
  const fmt = (n: number) => formatMarks(n, i18n.language);
  // The title in the learner's language, English where the set has none (docs/exams.md).
  const text = setText(set, i18n.language);
  // Take Test goes to take-exam with the whole question set as a JSON string.
  // (Its tags stay out of the address: they are for the list's filters.)
  const { tags: _tags, ...passed } = set;
  const to = `${paths.takeExam}/${encodeURIComponent(JSON.stringify(passed))}`;
  return (
    // A card below the screen is not laid out or painted until it comes near (content-visibility):
    // the list's first draw lays out only what the learner sees (docs/benchmarks.md "bench:lighthouse": total blocking
    // time). Its height until then is the one it last had, or about a card's.
    <Card withBorder radius="md" padding="lg" data-testid={`exam-card-${set.id}`} style={CARD_STYLE}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} size="h4" id={titleId} lang={text.l === set.l ? 'en' : undefined}>
            {text.l}
          </Title>
          <SetBadges free={set.free} isM={set.isM} />
        </Group>
        {/* A live test and when, from the questions' document on this device: offline too (docs/live-tests.md "On the exam list"). */}
        {item.live && <LiveBadge live={item.live} />}
        <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 12px' }}>
          <Fact label={t('marksPerQuestion')} value={fmt(set.mpq)} />
          <Fact label={t('totalMarks')} value={fmt(setTotalMarks(set))} />
          <Fact label={t('negativeMarking')} value={set.nm > 0 ? t('negativePerWrong', { marks: fmt(set.nm) }) : t('noNegative')} />
          <Fact label={t('questions')} value={String(set.count)} />
          <Fact label={t('duration')} value={t('minutes', { count: Math.round(durationSeconds(set.dur) / 60) })} />
        </dl>
        {taken && <TakenLine row={taken} titleId={titleId} />}
        <Group gap="xs" mt="auto" justify="space-between">
          <AvailabilityBadge item={item} complete={complete} locked={locked} />
          {/* A changed set can still be taken in the version on this device (offline, too). */}
          {gate.ok ? (
            <Button component={Link} to={to} aria-describedby={titleId} disabled={item.availability === 'downloading'}>
              {t('takeTest')}
            </Button>
          ) : (
            // Not a link at all: a disabled link can still be followed (the intro page checks too).
            <Button disabled aria-describedby={`${titleId} ${reasonId}`}>
              {t('takeTest')}
            </Button>
          )}
        </Group>
        {!gate.ok && (
          <Group gap="xs" justify="flex-end" data-testid="start-blocked">
            <Text size="sm" c="dimmed" id={reasonId}>
              {t(`allowance.reason.${gate.reason}`)}
            </Text>
            <Anchor component={Link} to={paths.plan} size="sm">
              {t('allowance.seePlans')}
            </Anchor>
          </Group>
        )}
        {locked && (
          <Text size="xs" c="dimmed" ta="end" data-testid="questions-with-plan">
            {t('allowance.questionsWithPlan')}
          </Text>
        )}
      </Stack>
    </Card>
  );
});

/** A set the learner has taken: the latest attempt's score and a way to its result. */
function TakenLine({ row, titleId }: { row: MyResultRow; titleId: string }) {
  const { t, i18n } = useTranslation('exam');
  const fmt = (n: number) => formatMarks(n, i18n.language);
  const score = row.score ? t('outOf', { got: fmt(row.score.got), of: fmt(row.score.of) }) : t('myResults.notScored');
  return (
    <Group gap="xs" justify="space-between" wrap="wrap" data-testid="taken">
      <Group gap={6} wrap="nowrap">
        <IconCircleCheck size={16} aria-hidden color="var(--mantine-color-teal-8)" />
        <Text size="sm" fw={600} data-testid="taken-score">
          {t('takenScore', { score })}
        </Text>
      </Group>
      <Button component={Link} to={`${paths.examResult}/${encodeURIComponent(row.qsid)}/false`} variant="default" size="compact-sm" aria-describedby={titleId}>
        {t('viewResult')}
      </Button>
    </Group>
  );
}

/**
 * How many of the learner's tests are on this device (all of them, once downloaded). Locked sets
 * are not counted: their questions come only with a plan.
 */
function DownloadProgress({ items }: { items: ExamListItem[] }) {
  const { t } = useTranslation('exam');
  const done = items.filter((i) => i.availability !== 'downloading').length;
  // Once every test is here the line stays, saying so, so that nothing below it moves up.
  const complete = done === items.length;
  return (
    <Stack gap={4} data-testid="download-progress">
      <Text size="sm">{complete ? t('downloadComplete', { count: items.length }) : t('downloadProgress', { done, total: items.length })}</Text>
      <Progress value={(done / items.length) * 100} aria-label={t('downloadProgressLabel')} striped={!complete} animated={!complete} color={complete ? 'teal' : undefined} />
    </Stack>
  );
}

/**
 * What the search looks in (docs/exams.md "Search"): the set's title, its sections' names, and
 * the names in every language of the subjects, exams and classes of its questions.
 */
function searchTextsOf(set: ExamListItem['set'], tagNames: Map<string, Record<string, string>> | undefined): string[] {
  // English and every other language the set is written in (docs/exams.md "Set texts in two languages").
  const texts = [set.l, ...Object.keys(set.sections)];
  for (const tr of Object.values(set.trans ?? {})) if (tr?.l) texts.push(tr.l);
  for (const section of Object.values(set.sections)) {
    texts.push(...Object.values(section.names ?? {}));
    for (const sub of Object.values(section.sub ?? {})) texts.push(...Object.values(sub.names ?? {}));
  }
  for (const value of [...(set.tags?.s ?? []), ...(set.tags?.e ?? []), ...(set.tags?.c ?? [])]) {
    const names = tagNames?.get(value);
    texts.push(...(names ? Object.values(names) : [value]));
  }
  return texts;
}

/** Exam list: the learner's published sets, read from the replica so it works offline. */
export default function ExamListPage() {
  // A guest's list is the free sets in the guest's replica (docs/replication.md "Guests").
  const signedIn = useSession() !== null;
  useGuestReplica(!signedIn);
  // The server's keys for tests handed from phone to phone, kept while online (docs/live-tests.md
  // "Key handling"); the code loads after the list, not with it.
  useEffect(() => {
    void import('@/lib/bundles').then((m) => m.rememberBundleKeys()).catch(() => undefined);
  }, []);
  const { t } = useTranslation('exam');
  const { data, loading } = useExamList();
  const access = useAllowance().data;
  const cached = useCachedMedia(data);
  const [filter, setFilter] = useState<TagFilter>(NO_FILTER);
  const [search, setSearch] = useState('');
  // Typing stays quick on a phone: the cards follow a moment later.
  const query = useDeferredValue(search);
  const tagNames = useTagNames();
  // A guest's results need an account (docs/exams.md "My results"): marks for the signed-in only.
  const mine = useMyResults().data;
  const taken = useMemo(() => {
    const latest = new Map<string, MyResultRow>();
    if (signedIn) for (const row of mine ?? []) if (!latest.has(row.qsid)) latest.set(row.qsid, row);
    return latest;
  }, [mine, signedIn]);
  const shown = data?.filter((item) => matchesFilter(item.set.tags, filter) && matchesSearch(query, searchTextsOf(item.set, tagNames)));
  const clearAll = () => {
    setFilter(NO_FILTER);
    setSearch('');
  };
  const downloadable = useMemo(() => (data ?? []).filter((item) => !lockedItem(item, access)), [data, access]);
  // The storage notice (docs/exams.md "Two tabs, storage and eviction") comes from an asynchronous check: the list waits for it (at
  // most 1 s: on a first visit it writes a probe of the space the download needs) so that a notice
  // does not push the plan and the tests down once they are drawn.
  // Both as transitions: the answer draws the whole list, in slices rather than one long task.
  const verdict = useStoreInTransition(subscribeStorageStatus, () => getStorageStatus().verdict);
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setWaited(true)), 1000);
    return () => clearTimeout(timer);
  }, []);
  const settled = verdict !== null || waited;
  return (
    <Container size="lg" py="lg">
      <Stack>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2}>{t('title')}</Title>
          <OpenSharedTest guest={!signedIn} />
        </Group>
        <LostAttemptsNotice />
        <StorageNotice />
        {settled && access && <AllowanceSummary allowance={access.allowance} />}
        {loading || !settled ? (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-busy="true" aria-label={t('loading')}>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={220} radius="md" />
            ))}
          </SimpleGrid>
        ) : data && data.length > 0 ? (
          <>
            {downloadable.length > 0 && <DownloadProgress items={downloadable} />}
            <TextInput
              type="search"
              label={t('search.label')}
              placeholder={t('search.placeholder')}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              w={{ base: '100%', sm: 360 }}
              data-testid="exam-search"
            />
            <ExamTagFilter items={data} value={filter} onChange={setFilter} />
            {shown && shown.length > 0 ? (
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
                {shown.map((item) => (
                  <ExamCard
                    key={item.set.id}
                    item={item}
                    access={access}
                    complete={!cached || item.media.every((u) => cached.has(u))}
                    taken={taken.get(item.set.id)}
                  />
                ))}
              </SimpleGrid>
            ) : (
              <Alert color="gray" data-testid="no-match">
                <Group gap="sm">
                  <Text size="sm">{t('filter.noMatch')}</Text>
                  <Button variant="subtle" size="compact-sm" onClick={clearAll}>
                    {t('filter.clear')}
                  </Button>
                </Group>
              </Alert>
            )}
          </>
        ) : (
          <Alert color="blue">{t('empty')}</Alert>
        )}
      </Stack>
    </Container>
  );
}
