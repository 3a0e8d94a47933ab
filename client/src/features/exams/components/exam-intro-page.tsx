import { Alert, Anchor, Badge, Button, Container, Group, Modal, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { RichHtml } from '@/components/rich-html';
import { paths } from '@/config/paths';
import { serverClock } from '@/db/sync/server-clock';
import { useSession } from '@/hooks/use-session';
import { rememberAnswerKey } from '@/lib/answer-file';
import { rememberSmsKey } from '@/lib/sms-answers';
import { loadDevanagariFonts } from '@/lib/fonts';
import { notifyError, notifyWarning } from '@/lib/notify';
import { rememberRedirect } from '@/lib/session';
import { useAllowance } from '../hooks/use-allowance';
import { useAttemptOwner } from '../hooks/use-attempt-owner';
import { useAttemptWriter } from '../hooks/use-attempt-writer';
import { useLivePaper } from '../hooks/use-live-paper';
import { useTestData } from '../hooks/use-test-data';
import { type Gate, gateOf, isLocked, isLockedSet } from '../lib/allowance';
import { formatMarks } from '../lib/marks';
import { parseQsParam } from '../lib/qs-param';
import { durationSeconds, partsOf } from '../lib/test-engine';
import { partLabel } from './question-palette';
import { setText, type SetTextSource, setTotalMarks } from '@pm/protocol/set-text';
import { TestDialog } from './test-dialog';
import { SetBadges } from './set-badges';
import { AttemptLockNotice } from './attempt-lock-notice';
import { StorageNotice } from './storage-notices';
import { LiveTestPanel } from './live-test-panel';
import { mayStartAt } from '@pm/protocol/live-test';
import { ShareTestButton } from './share-test-button';
import type { Attempt } from '../lib/test-engine';
import { useGuestReplica } from '@/db/learner/guest';

const OPEN_KEY = 'testOnScreen';

/**
 * Exam intro (take-exam/{qs-str}; docs/exams.md "The exam screens"): the set's facts, its sections with question counts
 * and marks, and the instructions; Start Test opens the test full screen (outside clicks and
 * Escape do not close it). Works offline from the replica.
 */
export default function ExamIntroPage() {
  const { t, i18n } = useTranslation('exam');
  const params = useParams();
  const session = useSession();
  // A guest takes the free sets from the guest's replica (docs/replication.md "Guests").
  useGuestReplica(!session);
  const navigate = useNavigate();
  const parsed = useMemo(() => parseQsParam(params['*']), [params]);
  const { data, loading } = useTestData(parsed?.id ?? null);
  // A live test's questions are sealed until its key or unlock code opens them (docs/live-tests.md).
  const livePaper = useLivePaper(data?.detail ?? null);
  const detail = livePaper.detail;
  const writer = useAttemptWriter();
  const access = useAllowance().data;
  const [openId, setOpenId] = useState<string | null>(null);
  const fmt = (n: number) => formatMarks(n, i18n.language);
  /** The title the link carried (qs-str), in the learner's language where it has one. */
  const passedTitle = (passed: Record<string, unknown> | null | undefined) => {
    if (typeof passed?.l !== 'string') return null;
    // The address is anyone's to write: only titles that are text are read from it.
    const trans: SetTextSource['trans'] = {};
    if (passed.trans && typeof passed.trans === 'object') {
      for (const [lang, tr] of Object.entries(passed.trans as Record<string, unknown>)) {
        const l = tr && typeof tr === 'object' ? (tr as { l?: unknown }).l : undefined;
        if (typeof l === 'string') trans[lang] = { l };
      }
    }
    return setText({ l: passed.l, inst: '', trans, sections: {} }, i18n.language).l;
  };

  // Questions may be in Hindi whatever the page language: fetch the Devanagari faces before the
  // test draws any (lib/fonts explains the empty boxes otherwise).
  useEffect(() => {
    void loadDevanagariFonts();
  }, []);

  // A signed-in learner about to take a test keeps the server's answer-file key on the device,
  // so that a submission that cannot reach the server can still be saved as a file (docs/answer-file.md),
  // and its session's SMS key, to send the answers by SMS (docs/sms.md "The key").
  useEffect(() => {
    if (session) {
      rememberAnswerKey();
      rememberSmsKey();
    }
  }, [session]);

  // Without a question set the test does not open and says so.
  useEffect(() => {
    if (!parsed) notifyError(t('notConfigured'));
  }, [parsed, t]);

  const inProgress = data?.attempts.find((a) => a.status === 'IN_PROGRESS') ?? null;
  // docs/payments.md "Without a plan": the plan's allowance is checked here, where a test actually starts, so a deep
  // link cannot bypass the exam list; resuming an attempt on this device is never blocked. Null
  // until the replica has answered (the start waits for it).
  const gate: Gate | null = data?.set && access ? gateOf(data.set, access.allowance, !!inProgress) : null;
  // A reload (or crash) while the test was on screen brings it back at once, at the stored
  // question and section; the flag lives in sessionStorage, so it is this tab's.
  const reopenId = inProgress && sessionStorage.getItem(OPEN_KEY) === inProgress.id ? inProgress.id : null;
  const shownId = openId ?? reopenId;
  // The test screen shows it with the journal's changes that are not in the document yet.
  const active = shownId ? (data?.attempts.find((a) => a.id === shownId) ?? null) : null;
  // docs/exams.md "Two tabs, storage and eviction": one tab of the browser owns the attempt on screen; in the others it is
  // read-only until they take it over. Every write of the test goes through the ownership.
  const owner = useAttemptOwner(active && detail ? active.id : null, active?.updatedAt ?? null);
  const { write: ownerWrite } = owner;
  const { write: writerWrite } = writer;
  const write = useCallback(
    (id: string, change: (a: Attempt) => Partial<Attempt>) => ownerWrite(() => writerWrite(id, change)),
    [ownerWrite, writerWrite],
  );
  // Time off screen (or while another tab had the test) does not count as test time used.
  useEffect(() => {
    if (shownId) writer.resume();
  }, [shownId, writer, owner.epoch]);
  const closeTest = () => {
    sessionStorage.removeItem(OPEN_KEY);
    setOpenId(null);
  };

  const startTest = async () => {
    if (!data?.set || !detail) return;
    if (!inProgress && !gate?.ok) return;
    // A live test starts only inside its window, on the server's clock (docs/live-tests.md "Live tests").
    if (!inProgress && livePaper.live && mayStartAt(livePaper.live, serverClock.now()) !== 'open') {
      notifyError(t('live.closed'));
      return;
    }
    const id = inProgress ? inProgress.id : (await writer.start(data.set.id)).id;
    sessionStorage.setItem(OPEN_KEY, id);
    setOpenId(id);
  };

  // Submitting marks the attempt submitted on the device at once and closes the test; the
  // replication uploads it when online (ARCHITECTURE decision 3).
  const submit = async (auto: boolean) => {
    if (!active || !data?.set) return;
    if (auto) notifyWarning(t('autoSubmitted'));
    const qsid = data.set.id;
    // One moment, read on both clocks: the receipt shows the device's and the server's (estimated).
    const deviceAt = Date.now();
    // Only the owning tab submits (a timer running out in a read-only tab changes nothing).
    if (!(await write(active.id, () => ({ status: 'SUBMITTED', submittedAt: Math.round(deviceAt + serverClock.offset()) })))) return;
    // The result page and replication read the document: the journal's changes go in first (the
    // submission is stored already; a failure here is retried by the journal).
    await writer.flush().catch((err: unknown) => console.error('attempt journal: flush before the result failed', err));
    // The receipt the result page shows (docs/exams.md "Submission receipt"); kept before the page opens, so it is there
    // at once, offline too. Failing to keep it loses no answer: the submission is stored.
    await writer.keepReceipt(active.id, { setLabel: setText(data.set, i18n.language).l, deviceAt }).catch((err: unknown) => console.error('submission receipt not kept', err));
    closeTest();
    const result = `${paths.examResult}/${encodeURIComponent(qsid)}/true`;
    if (!session) {
      // A guest (docs/replication.md "Guests"): the answers stay on this device; the result needs an account, so
      // sign up or log in first — the attempt then moves into that person's replica and uploads.
      rememberRedirect(result);
      void navigate(`${paths.login}?error=${encodeURIComponent(t('guestSubmitted'))}`);
      return;
    }
    void navigate(result);
  };

  if (parsed && !session && !loading && !data?.set) {
    // A guest and a set guests may not take (only the free ones come to a guest's device): the
    // set as the link carried it, and a way in.
    const passed = parsed.passed ?? {};
    return (
      <Container size="md" py="lg">
        <Stack>
          <Title order={2}>{passedTitle(passed) ?? t('title')}</Title>
          <Alert color="blue">{t('loginToStart')}</Alert>
          <Group>
            <Button
              onClick={() => {
                rememberRedirect(window.location.pathname + window.location.search);
                void navigate(paths.login);
              }}
            >
              {t('loginButton')}
            </Button>
          </Group>
        </Stack>
      </Container>
    );
  }
  if (!parsed) {
    return (
      <Container size="md" py="lg">
        <Alert color="red">{t('notConfigured')}</Alert>
      </Container>
    );
  }
  if (loading) {
    return (
      <Container size="md" py="lg">
        <Skeleton height={320} radius="md" />
      </Container>
    );
  }
  const set = data?.set;
  if (!set) {
    return (
      <Container size="md" py="lg">
        <Stack>
          {passedTitle(parsed.passed) !== null && <Title order={2}>{passedTitle(parsed.passed)}</Title>}
          <Alert color="orange">{t('notOnDevice')}</Alert>
        </Stack>
      </Container>
    );
  }
  const parts = detail ? partsOf(detail) : [];
  // Title, instructions and section names in the learner's language (docs/exams.md).
  const text = setText(set, i18n.language);
  const lockedSet = !!gate && isLockedSet(!!detail, gate);
  // The latest submitted attempt, the one the result page shows (attempts come newest first).
  const latestSubmitted = data.attempts.find((a) => a.status === 'SUBMITTED');

  return (
    <Container size="md" py="lg">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Title order={2}>{text.l}</Title>
          <SetBadges free={set.free} isM={set.isM} />
        </Group>
        <Group gap="xl">
          <Text>
            {t('totalMarks')}: <strong>{fmt(setTotalMarks(set))}</strong>
          </Text>
          <Text>
            {t('marksPerQuestion')}: <strong>{fmt(set.mpq)}</strong>
          </Text>
          <Text>
            {t('negativeMarks')}: <strong>{fmt(set.nm)}</strong>
          </Text>
          <Text>
            {t('duration')}: <strong>{t('minutes', { count: Math.round(durationSeconds(set.dur) / 60) })}</strong>
          </Text>
        </Group>
        {parts.length > 0 && (
          // On a phone the table scrolls within itself; the page never scrolls sideways.
          <Table.ScrollContainer minWidth={420} type="native">
            <Table withTableBorder striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('section')}</Table.Th>
                  <Table.Th>{t('questions')}</Table.Th>
                  <Table.Th>{t('marksPerQuestion')}</Table.Th>
                  <Table.Th>{t('negativeMarks')}</Table.Th>
                  <Table.Th>{t('marks')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {parts.map((p) => (
                  <Table.Tr key={p.key}>
                    <Table.Td>{partLabel(p, t, text)}</Table.Td>
                    <Table.Td>{p.qids.length}</Table.Td>
                    <Table.Td>{fmt(p.mpq)}</Table.Td>
                    <Table.Td>{fmt(p.nm)}</Table.Td>
                    <Table.Td>{fmt(p.mpq * p.qids.length)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {text.inst && (
          <Stack gap={4}>
            <Title order={3} size="h4">
              {t('instructions')}
            </Title>
            <RichHtml html={text.inst} />
          </Stack>
        )}
        {/* A paid set the plan does not cover has no questions on the device, and none are on
            their way until a plan covers it (docs/payments.md "Without a plan"): not "downloading". */}
        {livePaper.live && (
          <LiveTestPanel
            qsid={set.id}
            live={livePaper.live}
            registered={livePaper.registered}
            opened={!!detail}
            keyB64={livePaper.key}
            unlock={livePaper.unlock}
          />
        )}
        {!detail && !lockedSet && !livePaper.live && <Alert color="blue">{t('downloading')}</Alert>}
        <StorageNotice />
        {gate && !gate.ok && (
          <Alert color="orange" data-testid="start-blocked">
            <Group gap="sm">
              <Text size="sm">{t(`allowance.reason.${gate.reason}`)}</Text>
              <Anchor component={Link} to={paths.plan} size="sm">
                {t('allowance.seePlans')}
              </Anchor>
            </Group>
            {lockedSet && (
              <Text size="sm" mt="xs">
                {t('allowance.questionsWithPlan')}
              </Text>
            )}
          </Alert>
        )}
        <Group>
          <Button size="md" onClick={() => void startTest()} disabled={!detail || !writer.ready || (!inProgress && !gate?.ok)}>
            {inProgress ? t('resumeTest') : t('startTest')}
          </Button>
          {/* Handed to a nearby phone as a signed file (docs/live-tests.md "A test handed from phone to phone"). */}
          {session && detail && <ShareTestButton qsid={set.id} title={text.l} />}
          {latestSubmitted && (
            <Button variant="default" onClick={() => void navigate(`${paths.examResult}/${encodeURIComponent(set.id)}/false`)}>
              {t('viewResult')}
            </Button>
          )}
          {/* Its result opens when a plan covers it (docs/payments.md "Without a plan"). */}
          {latestSubmitted && isLocked(access?.entitlement ?? null, latestSubmitted.id) && (
            <Badge color="orange" variant="light" leftSection={<IconLock size={12} aria-hidden />} data-testid="attempt-locked">
              {t('allowance.lockedAttempt')}
            </Badge>
          )}
        </Group>
      </Stack>
      <Modal
        opened={!!active && !!detail}
        onClose={closeTest}
        fullScreen
        withCloseButton={false}
        closeOnClickOutside={false}
        closeOnEscape={false}
        padding={0}
        // The dialog is named by its title (aria-labelledby; an aria-label here would go to
        // Mantine's root element, not to the dialog). The title's header is not drawn: the test's
        // own header shows the set's label.
        title={text.l}
        styles={{ header: { display: 'none' } }}
        transitionProps={{ duration: 0 }}
      >
        {active && detail && (
          <TestDialog
            // A new owner starts the screen again from the attempt as the last owner left it.
            key={`${active.id}-${owner.epoch}`}
            set={set}
            detail={detail}
            attempt={active}
            write={write}
            onClose={closeTest}
            onSubmit={submit}
            readOnly={owner.state !== 'owner'}
            notice={owner.state === 'other' || owner.state === 'taking-over' ? <AttemptLockNotice state={owner.state} onTakeOver={owner.takeOver} /> : null}
          />
        )}
      </Modal>
    </Container>
  );
}
