import { Card, Group, Text } from '@mantine/core';
import { IconCheck, IconCircleCheck, IconCircleMinus, IconCircleX, IconHourglass, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResultQuestion } from '@pm/protocol/sync/exam-result';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
import { RichHtml } from '@/components/rich-html';
import { durationText } from '../lib/duration';
import { formatMarks } from '../lib/marks';
import { describeNumericAnswer } from '../lib/numeric-answer';
import type { QuestionOutcome } from '../lib/result-view';
import classes from './exam-result-page.module.css';
import { localized } from './question-view';
import { ResultExplanation } from './result-explanation';

type Kind = 'correct' | 'incorrect' | 'unanswered' | 'pending' | 'chosen' | 'info';

const VERDICT_ICON: Record<QuestionOutcome['verdict'], ReactNode> = {
  correct: <IconCircleCheck size={14} aria-hidden />,
  incorrect: <IconCircleX size={14} aria-hidden />,
  unanswered: <IconCircleMinus size={14} aria-hidden />,
  pending: <IconHourglass size={14} aria-hidden />,
};

/** A pill that says what it marks in words, with an icon; the colour only repeats it. */
export function Mark({ kind, icon, children, testId }: { kind: Kind; icon: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <span className={classes.mark} data-kind={kind} data-testid={testId}>
      {icon}
      {children}
    </span>
  );
}

const isChoice = (q: ResultQuestion | TestQuestion | undefined) => q?.qt === 'mcq1' || q?.qt === 'mcq2';
const hasAnswer = (ua: QuestionOutcome['ua']) => ua !== null && ua !== '' && !(Array.isArray(ua) && ua.length === 0);

/**
 * Accepted texts (f) or the model answer (s) in the language shown: the translation's own when it
 * has them, else the English ones.
 */
function answersIn(q: ResultQuestion | TestQuestion, ca: string[] | null, lang: string): string[] {
  const own = lang === 'en' ? undefined : q.trans[lang]?.ca?.filter((a) => a.trim() !== '');
  return own && own.length > 0 ? own : (ca ?? []);
}

/**
 * One question of the result (docs/exams.md "The result page"): the question and every option as
 * rich text (images and formulas), in the language chosen with an English fallback that says so;
 * the learner's option(s) and the correct one(s) marked in words and icons; a typed answer beside
 * the accepted answers or the model answer; a subjective answer awaiting evaluation said as such.
 */
export function ResultQuestionCard({ outcome, lang }: { outcome: QuestionOutcome; lang: string }) {
  const { t, i18n } = useTranslation('exam');
  const q = outcome.question;
  const view = q ? localized(q, lang) : null;
  const answered = hasAnswer(outcome.ua);
  const chosen = new Set(isChoice(q) && answered ? (Array.isArray(outcome.ua) ? outcome.ua : [outcome.ua as string]) : []);
  const correct = new Set(isChoice(q) ? (outcome.ca ?? []) : []);
  const keyKnown = outcome.ca !== null;
  const letters = (keys: Iterable<string>) => [...keys].map((k) => k.toUpperCase()).join(', ');

  return (
    <Card withBorder padding="sm" className={classes.outcome} data-testid={`outcome-${outcome.qid}`} component="article" aria-label={t('questionN', { n: outcome.n })}>
      <Group justify="space-between" mb={4} wrap="wrap" gap="xs">
        <Text fw={600} component="h4" m={0} fz="md">
          {t('questionN', { n: outcome.n })}
        </Text>
        <Group gap="xs">
          <Mark kind={outcome.verdict} icon={VERDICT_ICON[outcome.verdict]} testId="verdict">
            {t(`verdict.${outcome.verdict}`)}
          </Mark>
          <Text size="sm" data-testid="marks-gained">
            {t('marksGained', { mg: outcome.mg === null ? '—' : formatMarks(outcome.mg, i18n.language) })}
          </Text>
          <Text size="sm" c="dimmed" data-testid="question-time" data-seconds={outcome.timeS}>
            {durationText(outcome.timeS, t)}
          </Text>
        </Group>
      </Group>
      {view?.fallback && (
        <p role="note" className={classes.fallbackNote} data-testid="english-fallback">
          {t('englishFallback')}
        </p>
      )}
      {view && <RichHtml html={view.q} className={classes.question} />}

      {q && view && isChoice(q) && (
        <>
          <ol className={classes.options} aria-label={t('options')} data-testid="options">
            {Object.keys(view.ops).map((k) => {
              const isChosen = chosen.has(k);
              const isCorrect = correct.has(k);
              return (
                <li key={k} className={classes.option} data-testid={`option-${k}`} data-chosen={isChosen || undefined} data-correct={isCorrect || undefined}>
                  <span className={classes.optionKey}>{k.toUpperCase()}.</span>
                  <RichHtml html={view.ops[k] ?? ''} className={classes.optionText} />
                  <span className={classes.optionMarks}>
                    {isChosen && (
                      <Mark
                        kind={!keyKnown ? 'chosen' : isCorrect ? 'correct' : 'incorrect'}
                        icon={!keyKnown || isCorrect ? <IconCheck size={14} aria-hidden /> : <IconX size={14} aria-hidden />}
                        testId="chosen-mark"
                      >
                        {t('yourAnswer')}
                      </Mark>
                    )}
                    {isCorrect && (
                      <Mark kind="correct" icon={<IconCircleCheck size={14} aria-hidden />} testId="correct-mark">
                        {t('correctAnswer')}
                      </Mark>
                    )}
                  </span>
                </li>
              );
            })}
          </ol>
          <dl className={classes.answerRows}>
            <div>
              <dt>{t('yourAnswer')}</dt>
              <dd data-testid="your-answer">{chosen.size > 0 ? letters(chosen) : t('notAnswered')}</dd>
            </div>
            <div>
              <dt>{t('correctAnswer')}</dt>
              <dd data-testid="correct-answer">{keyKnown && correct.size > 0 ? letters(correct) : t('keyNotAvailable')}</dd>
            </div>
          </dl>
        </>
      )}

      {q && !isChoice(q) && (
        <dl className={classes.answerRows}>
          <div>
            <dt>{t('yourAnswer')}</dt>
            <dd data-testid="your-answer" className={classes.answerText}>
              {answered ? String(outcome.ua) : t('notAnswered')}
            </dd>
          </div>
          <div>
            <dt>{q.qt === 's' ? t('modelAnswerLabel') : q.qt === 'n' ? t('acceptedValues') : t('acceptedAnswers')}</dt>
            <dd data-testid="correct-answer" className={classes.answerText}>
              {!keyKnown
                ? t('keyNotAvailable')
                : q.qt === 'n'
                  ? (outcome.ca ?? [])
                      .map((a) => {
                        const d = describeNumericAnswer(a);
                        if (d.kind === 'tolerance') return t('numericTolerance', { value: d.value, tol: d.tol, min: d.min, max: d.max });
                        if (d.kind === 'range') return t('numericRange', { min: d.min, max: d.max });
                        return d.value;
                      })
                      .join(' / ') || '—'
                  : answersIn(q, outcome.ca, lang).join(q.qt === 's' ? '\n' : ' / ') || '—'}
            </dd>
          </div>
        </dl>
      )}

      {!q && (
        <Text size="sm" c="dimmed">
          {t('questionUnavailable')}
        </Text>
      )}

      {q && <ResultExplanation question={q} lang={lang} />}

      {outcome.verdict === 'pending' && (
        <p role="note" className={classes.pendingNote} data-testid="pending-note">
          <IconHourglass size={16} aria-hidden /> {t('pendingEvaluation')}
        </p>
      )}
    </Card>
  );
}
