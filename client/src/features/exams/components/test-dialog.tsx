import { ActionIcon, Button, Group, SegmentedControl, Text, Tooltip } from '@mantine/core';
import { IconLayoutSidebarRight, IconMinus, IconPlus, IconX } from '@tabler/icons-react';
import { memo, type ReactNode, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { getSyncStatus, subscribeSyncStatus } from '@/db/sync/sync-status';
import { useCanHover } from '@/hooks/use-can-hover';
import { useSession } from '@/hooks/use-session';
import { useStableCallback } from '@/hooks/use-stable-callback';
import { useValueAfterPaint } from '@/hooks/use-value-after-paint';
import { api } from '@/lib/api-client';
import { useAttemptView } from '../hooks/use-attempt-writer';
import { attemptLanguage, rememberAttemptLanguage } from '../lib/attempt-language';
import type { QuestionSet } from '../hooks/use-test-data';
import {
  addTime,
  answer,
  type Attempt,
  type Part,
  type Slot,
  clearResponse,
  countStates,
  type Detail,
  durationSeconds,
  markForReview,
  partsOf,
  questionMap,
  slotsOf,
  type UserAnswer,
  visit,
} from '../lib/test-engine';
import { partLabel, PaletteLegend, QuestionPalette, STATE_LABEL } from './question-palette';
import { sanitizeHtml } from '@/components/rich-html';
// KaTeX's styles for the formulas in question text (server-rendered; components/formula-styles).
import '@/components/formula-styles';
import { localized, questionLabels, QuestionView } from './question-view';
import { SubmitSummary } from './submit-summary';
import { setText, type SetText } from '@pm/protocol/set-text';
import classes from './test-dialog.module.css';
import { TestTimer } from './test-timer';

const FONT_STEP = 2;
const FONT_DEFAULT = 16;
const FONT_MIN = 10;
const FONT_MAX = 32;
/** The learner's text size, kept on this device (docs/offline-integrity.md "The tab and the browser"). */
const FONT_KEY = 'pm-test-font-size';

function storedFontSize(): number {
  try {
    const n = Number(localStorage.getItem(FONT_KEY));
    return Number.isInteger(n) && n >= FONT_MIN && n <= FONT_MAX ? n : FONT_DEFAULT;
  } catch {
    return FONT_DEFAULT;
  }
}
const PARTICIPANTS_POLL_MS = 300_000;

/** Runs `run` and records how long it took as a performance measure named `name`. */
function measured(name: string, run: () => Promise<boolean>): Promise<boolean> {
  const start = performance.now();
  return run().then((ok) => {
    if (ok) performance.measure(name, { start });
    return ok;
  });
}

type Writer = (id: string, change: (a: Attempt) => Partial<Attempt>) => Promise<boolean>;

/** Participants count, polled every 5 minutes (docs/glossary.md "Fixed values") while online. */
function useParticipants(qsid: string, online: boolean): number | null {
  const [p, setP] = useState<number | null>(null);
  useEffect(() => {
    if (!online) return;
    let stop = false;
    const load = () =>
      api<{ success: boolean; p: number }>('/generic/getParticipantsCount', { query: { quesSetId: qsid }, background: true, silent: true })
        .then((r) => !stop && setP(r.p))
        .catch(() => undefined);
    void load();
    const id = window.setInterval(load, PARTICIPANTS_POLL_MS);
    return () => {
      stop = true;
      window.clearInterval(id);
    };
  }, [qsid, online]);
  return online ? p : null;
}

/** Section tabs with their answered counts; memoised: a move within a section does not redraw them. */
const SectionTabs = memo(function SectionTabs({
  parts,
  answers,
  partIndex,
  onPickPart,
  text,
}: {
  parts: Part[];
  answers: Attempt['answers'];
  partIndex: number;
  onPickPart: (key: string) => void;
  text: SetText;
}) {
  const { t } = useTranslation('exam');
  return (
    <div className={classes.tabs} role="tablist" aria-label={t('sections')}>
      {parts.map((p, i) => {
        const c = countStates(p.qids, answers);
        return (
          <button
            key={p.key}
            type="button"
            role="tab"
            className={classes.tab}
            aria-selected={i === partIndex}
            onClick={() => onPickPart(p.key)}
            title={(['ANSWERED', 'VISITED', 'MARKED', 'ANSWERED_MARKED', 'NOT_VISITED'] as const).map((s) => `${t(STATE_LABEL[s])}: ${c[s]}`).join(' · ')}
          >
            {partLabel(p, t, text)}
            <span className={classes.tabCounts} aria-label={t('tabCounts', { answered: c.ANSWERED + c.ANSWERED_MARKED, total: p.qids.length })}>
              {c.ANSWERED + c.ANSWERED_MARKED}/{p.qids.length}
            </span>
          </button>
        );
      })}
    </div>
  );
});

/** The buttons under the question; memoised: they redraw only at the first and the last question. */
const TestFooter = memo(function TestFooter({
  isFirst,
  isLast,
  onMark,
  onClear,
  onPrev,
  onNext,
  onSubmit,
}: {
  isFirst: boolean;
  isLast: boolean;
  onMark: () => void;
  onClear: () => void;
  onPrev: () => void;
  onNext: () => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation('exam');
  return (
    <footer className={classes.footer}>
      <Button variant="light" color="violet" onClick={onMark}>
        {t('markAndNext')}
      </Button>
      <Button variant="default" onClick={onClear}>
        {t('clearResponse')}
      </Button>
      <span className={classes.spacer} />
      <Button variant="default" onClick={onPrev} disabled={isFirst}>
        {t('prev')}
      </Button>
      {isLast ? (
        <Button color="green" onClick={onSubmit}>
          {t('submit')}
        </Button>
      ) : (
        <Button color="green" onClick={onNext}>
          {t('saveAndNext')}
        </Button>
      )}
    </footer>
  );
});

/** The palette side bar (legend, question buttons, Submit); memoised, drawn after the question. */
const TestSidebar = memo(function TestSidebar({
  open,
  parts,
  slots,
  qids,
  answers,
  current,
  onPick,
  onSubmit,
  text,
  onClose,
}: {
  open: boolean;
  parts: Part[];
  slots: Slot[];
  qids: string[];
  answers: Attempt['answers'];
  current: number;
  onPick: (index: number) => void;
  onSubmit: () => void;
  text: SetText;
  onClose: () => void;
}) {
  const { t } = useTranslation('exam');
  return (
    <aside className={classes.sidebar} data-open={open || undefined} aria-label={t('palette')}>
      {/* A phone: the palette covers the screen, header included; this takes the learner back. */}
      <div className={classes.sidebarClose}>
        <Button variant="default" size="xs" fullWidth leftSection={<IconX size={14} aria-hidden />} onClick={onClose}>
          {t('backToQuestion')}
        </Button>
      </div>
      <PaletteLegend qids={qids} answers={answers} />
      <QuestionPalette parts={parts} slots={slots} answers={answers} current={current} onPick={onPick} text={text} />
      <div className={classes.submitBox}>
        <Button fullWidth color="green" variant="outline" onClick={onSubmit}>
          {t('submit')}
        </Button>
      </div>
    </aside>
  );
});

/** The test's top bar; memoised: an answer or a move does not re-render it (only the timer ticks). */
const TestHeader = memo(function TestHeader({
  title,
  participants,
  st,
  durationS,
  onTimeUp,
  lang,
  onLang,
  onFont,
  paletteOpen,
  onPalette,
  onClose,
  onSubmit,
}: {
  title: string;
  participants: number | null;
  st: number;
  durationS: number;
  onTimeUp: () => void;
  lang: string;
  onLang: (lang: string) => void;
  onFont: (update: (f: number) => number) => void;
  paletteOpen: boolean;
  onPalette: (update: (o: boolean) => boolean) => void;
  onClose: () => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation('exam');
  // On a touch screen a tooltip opens at the tap and stays over the timer: none there (the
  // buttons are named for screen readers either way).
  const canHover = useCanHover();
  return (
    <header className={classes.header}>
      <span className={classes.title}>{title}</span>
      {/* No one to count yet is not news: the count shows from the first participant. */}
      {participants !== null && participants > 0 && (
        <Text size="sm" data-testid="participants">
          {t('participants', { count: participants })}
        </Text>
      )}
      <TestTimer st={st} durationS={durationS} onTimeUp={onTimeUp} />
      <SegmentedControl
        size="xs"
        value={lang}
        onChange={onLang}
        aria-label={t('questionLanguage')}
        data={[
          { value: 'en', label: 'English' },
          { value: 'hi', label: 'हिन्दी' },
        ]}
      />
      <Group gap={4}>
        <Tooltip label={t('fontSmaller')} disabled={!canHover}>
          <ActionIcon variant="default" aria-label={t('fontSmaller')} onClick={() => onFont((f) => Math.max(FONT_MIN, f - FONT_STEP))}>
            <IconMinus size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('fontLarger')} disabled={!canHover}>
          <ActionIcon variant="default" aria-label={t('fontLarger')} onClick={() => onFont((f) => Math.min(FONT_MAX, f + FONT_STEP))}>
            <IconPlus size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
      {/* A phone (the palette is a drawer there): the palette behind a labelled button, and
          Submit always in sight, as on the NTA screen (docs/exams.md "The exam screens"). */}
      <Button
        className={classes.sidebarToggle}
        variant="default"
        size="xs"
        leftSection={<IconLayoutSidebarRight size={16} aria-hidden />}
        aria-expanded={paletteOpen}
        onClick={() => onPalette((o) => !o)}
      >
        {t('paletteButton')}
      </Button>
      <Button className={classes.headerSubmit} color="green" size="xs" onClick={onSubmit}>
        {t('submit')}
      </Button>
      <Tooltip label={t('closeTest')} disabled={!canHover}>
        <ActionIcon variant="subtle" color="gray" aria-label={t('closeTest')} onClick={onClose}>
          <IconX size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </header>
  );
});

/**
 * The test (docs/exams.md "The exam screens") as in the NTA computer-based test: question with its
 * inputs, section tabs, the palette with five states, Save & Next, Mark for Review & Next,
 * Clear Response, language and font size, the timer with automatic submission at zero, and a
 * summary before submitting. Everything is read from and written to the attempt in the replica.
 */
export function TestDialog({
  set,
  detail,
  attempt: storedAttempt,
  write,
  onClose,
  onSubmit,
  readOnly = false,
  notice = null,
}: {
  set: QuestionSet;
  detail: Detail;
  attempt: Attempt;
  write: Writer;
  onClose: () => void;
  onSubmit: (auto: boolean) => Promise<void>;
  /**
   * Another tab owns the attempt (docs/exams.md "Two tabs, storage and eviction"), or this tab is still asking: nothing can be
   * changed here (the writes would be refused anyway, see use-attempt-owner).
   */
  readOnly?: boolean;
  /** Shown above the question while read-only: why, and how to take over. */
  notice?: ReactNode;
}) {
  const { t, i18n } = useTranslation('exam');
  // Every change is on screen once stored (in the journal), before it reaches the document.
  const attempt = useAttemptView(storedAttempt);
  const parts = useMemo(() => partsOf(detail), [detail]);
  const slots = useMemo(() => slotsOf(parts), [parts]);
  const questions = useMemo(() => questionMap(detail), [detail]);
  const allQids = useMemo(() => slots.map((s) => s.qid), [slots]);
  const durationS = durationSeconds(set.dur);
  // The set's title and section names in the learner's language (docs/exams.md).
  const text = useMemo(() => setText(set, i18n.language), [set, i18n.language]);
  // Shown from here as soon as the move is stored (the stored attempt follows a moment later).
  const [index, setIndex] = useState(attempt.index);
  const current = Math.min(Math.max(0, index), Math.max(0, slots.length - 1));
  const slot = slots[current];
  const question = slot ? questions.get(slot.qid) : undefined;
  // A resumed test keeps the language it was read in; the result page shows that language too.
  const [lang, setLang] = useState<string>(() => attemptLanguage(storedAttempt.id) ?? (i18n.language === 'hi' ? 'hi' : 'en'));
  useEffect(() => rememberAttemptLanguage(storedAttempt.id, lang), [storedAttempt.id, lang]);
  const [fontSize, setFontSize] = useState(storedFontSize);
  useEffect(() => {
    try {
      if (fontSize === FONT_DEFAULT) localStorage.removeItem(FONT_KEY);
      else localStorage.setItem(FONT_KEY, String(fontSize));
    } catch {
      // Storage refused (private mode): the size holds for this test only.
    }
  }, [fontSize]);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [summary, setSummary] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const online = useSyncExternalStore(subscribeSyncStatus, () => getSyncStatus().online);
  // The count is for signed-in learners only (docs/exams.md, the API table): a guest's test does not ask for it.
  const signedIn = useSession() !== null;
  const participants = useParticipants(set.id, online && signedIn);
  const enteredAt = useRef(0);
  // The question a move went to: the move stored its visit already (see the effect below).
  const movedTo = useRef<string | null>(null);

  // Opening a question marks it visited and remembers where the learner is (a reopened
  // test resumes at the last question and section).
  const id = attempt.id;
  const slotQid = slot?.qid;
  const slotPart = slot?.part.key;
  useEffect(() => {
    if (!slotQid) return;
    enteredAt.current = performance.now();
    // After a move nothing is left to store: skipped, as this runs before the move is painted.
    if (movedTo.current === slotQid) {
      movedTo.current = null;
      return;
    }
    // A move stores the visit itself: only a question opened otherwise (start, resume) is written.
    void write(id, (a) =>
      a.lsq === slotQid && a.answers[slotQid] ? {} : { answers: visit(a.answers, slotQid), lsq: slotQid, selectedSection: slotPart ?? null },
    );
  }, [id, slotQid, slotPart, write]);

  const go = useCallback(
    async (to: number) => {
      if (to < 0 || to >= slots.length || !slot) return;
      const now = performance.now();
      const spent = now - enteredAt.current;
      enteredAt.current = now;
      const target = slots[to]!;
      // (A state set to its own value can still cost a render: only when open.)
      if (paletteOpen) setPaletteOpen(false);
      // Stored before the screen moves on (ARCHITECTURE decision 3), visit included.
      await write(id, (a) => ({
        answers: visit(addTime(a.answers, slot.qid, spent), target.qid),
        index: to,
        lsq: target.qid,
        selectedSection: target.part.key,
      }));
      // (A move to the question on screen re-runs no effect: nothing to skip then.)
      if (target.qid !== slot.qid) movedTo.current = target.qid;
      // Drawn at once, in the task that heard the write is stored (not a scheduler task later).
      flushSync(() => setIndex(to));
    },
    [id, slot, slots, write, paletteOpen],
  );

  const [cleared, setCleared] = useState(0);
  const [clearedQid, setClearedQid] = useState<string | null>(null);
  const isLast = current === slots.length - 1;
  // Stable per question, so the memoised question view does not re-render for every stored change.
  const onAnswer = useCallback(
    (ua: UserAnswer) => {
      if (clearedQid !== null) setClearedQid(null);
      if (!slotQid) return;
      // Timed for scripts/bench-exam-chromium.ts: answer given → stored in IndexedDB.
      void measured('pm:answer-stored', () => write(id, (a) => ({ answers: answer(a.answers, slotQid, ua) })));
    },
    [id, slotQid, write, clearedQid],
  );
  // Stable, so the memoised footer, tabs and palette do not redraw with every move.
  const saveAndNext = useStableCallback(() => (isLast ? setSummary(true) : void go(current + 1)));
  const markAndNext = useStableCallback(async () => {
    if (!slot) return;
    await write(id, (a) => ({ answers: markForReview(a.answers, slot.qid) }));
    if (isLast) setSummary(true);
    else await go(current + 1);
  });
  // The question view keeps its answer locally; a new key starts it again from "no answer".
  const clear = useStableCallback(() => {
    if (!slot) return;
    setCleared((c) => c + 1);
    setClearedQid(slot.qid);
    void write(id, (a) => ({ answers: clearResponse(a.answers, slot.qid) }));
  });
  const mark = useStableCallback(() => void markAndNext());
  const prev = useStableCallback(() => void go(current - 1));
  const pick = useStableCallback((i: number) => void go(i));
  const pickPart = useStableCallback((key: string) => void go(slots.findIndex((s) => s.part.key === key)));
  const openSummary = useCallback(() => setSummary(true), []);
  const closePalette = useCallback(() => setPaletteOpen(false), []);

  const submit = useCallback(
    async (auto: boolean) => {
      setSubmitting(true);
      if (slot) {
        const spent = performance.now() - enteredAt.current;
        await write(id, (a) => ({ answers: addTime(a.answers, slot.qid, spent) }));
      }
      await onSubmit(auto);
    },
    [id, onSubmit, slot, write],
  );

  // Stable, so the memoised header does not re-render with every change of the attempt.
  const onTimeUp = useStableCallback(() => void submit(true));
  // The question on screen keeps the time it was shown when the test closes or the page is hidden
  // (docs/exams.md "Time taken": every moment the test is on screen belongs to a question).
  const keepTime = useStableCallback(async () => {
    if (!slot) return;
    const now = performance.now();
    const spent = now - enteredAt.current;
    enteredAt.current = now;
    await write(id, (a) => ({ answers: addTime(a.answers, slot.qid, spent) }));
  });
  // Closing never waits on a failed write: the journal has reported it already.
  const close = useStableCallback(() => void keepTime().catch(() => undefined).then(onClose));
  useEffect(() => {
    const onVisibility = () => {
      // Hidden (another app, a locked phone): not on screen, so not counted from here on.
      if (document.visibilityState === 'hidden') void keepTime();
      else enteredAt.current = performance.now();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, [keepTime]);

  // While the learner reads, the next and the previous question are prepared (their HTML made
  // safe), so that moving to them does only the drawing.
  useEffect(() => {
    const ahead = [slots[current + 1], slots[current - 1]].flatMap((s) => (s ? [questions.get(s.qid)] : [])).filter((q) => q !== undefined);
    const prepare = () => {
      for (const q of ahead) {
        const view = localized(q, lang);
        sanitizeHtml(view.q);
        for (const html of Object.values(view.ops)) sanitizeHtml(html);
      }
    };
    if (typeof requestIdleCallback !== 'function') return;
    const id = requestIdleCallback(prepare, { timeout: 2000 });
    return () => cancelIdleCallback(id);
  }, [current, slots, questions, lang]);

  // The page under the full-screen test is hidden meanwhile (test-dialog.module.css).
  useEffect(() => {
    document.documentElement.setAttribute('data-test-open', '');
    return () => document.documentElement.removeAttribute('data-test-open');
  }, []);

  const partIndex = parts.findIndex((p) => p.key === slot?.part.key);
  // Translated once per question (and language), not in every render of the test.
  const heading = useMemo(
    () =>
      slot && {
        number: t('questionN', { n: slot.n }),
        meta: `${t('sectionLabel', { section: partLabel(slot.part, t, text) })} · ${t('marksInfo', { mpq: slot.part.mpq, nm: slot.part.nm })}`,
      },
    [slot, t, text],
  );
  const labels = useMemo(() => questionLabels(t), [t]);
  // The palette, the legend and the tab counts follow in a render of their own once the step is
  // painted: the next question is drawn and painted first. (With React's deferred values their
  // render often ran between the question's render and its paint: ~+10 ms p95 at 4×.)
  const laterAnswers = useValueAfterPaint(attempt.answers);
  const laterCurrent = useValueAfterPaint(current);
  const ua = slot ? attempt.answers[slot.qid]?.ua : undefined;

  return (
    <div className={classes.shell}>
      <TestHeader
        title={text.l}
        participants={participants}
        st={attempt.st}
        durationS={durationS}
        onTimeUp={onTimeUp}
        lang={lang}
        onLang={setLang}
        onFont={setFontSize}
        paletteOpen={paletteOpen}
        onPalette={setPaletteOpen}
        onClose={close}
        onSubmit={openSummary}
      />
      {notice}
      <div className={classes.body} inert={readOnly} data-readonly={readOnly || undefined}>
        <div className={classes.main}>
          <SectionTabs parts={parts} answers={laterAnswers} partIndex={partIndex} onPickPart={pickPart} text={text} />
          <div className={classes.question} role="tabpanel">
            {slot && question && heading ? (
              <>
                <div className={classes.qHeader}>
                  {/* A new element per question, named for the Element Timing API: its paint time
                      is how long a move took to show (scripts/bench-exam-chromium.ts). Plain
                      elements here: this is drawn on every move. */}
                  <p key={slot.qid} className={classes.qNumber} data-testid="question-number" {...{ elementtiming: 'question-number' }}>
                    {heading.number}
                  </p>
                  <p className={classes.qMeta}>{heading.meta}</p>
                </div>
                <QuestionView
                  key={`${slot.qid}-${lang}-${cleared}`}
                  question={question}
                  lang={lang}
                  fontSize={fontSize}
                  initial={slot.qid === clearedQid ? null : ua}
                  onAnswer={onAnswer}
                  labels={labels}
                />
              </>
            ) : (
              <Text>{t('notConfigured')}</Text>
            )}
          </div>
          <TestFooter
            isFirst={current === 0}
            isLast={isLast}
            onMark={mark}
            onClear={clear}
            onPrev={prev}
            onNext={saveAndNext}
            onSubmit={openSummary}
          />
        </div>
        <TestSidebar
          open={paletteOpen}
          parts={parts}
          slots={slots}
          qids={allQids}
          answers={laterAnswers}
          current={laterCurrent}
          onPick={pick}
          onSubmit={openSummary}
          text={text}
          onClose={closePalette}
        />
      </div>
      {summary && !readOnly && (
        <SubmitSummary
          opened
          parts={parts}
          text={text}
          answers={attempt.answers}
          busy={submitting}
          onCancel={() => setSummary(false)}
          onConfirm={() => void submit(false)}
        />
      )}
    </div>
  );
}
