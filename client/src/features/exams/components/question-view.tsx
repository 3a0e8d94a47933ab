import { memo, useId, useRef, useState } from 'react';
import { normaliseNumber } from '@pm/protocol/marking';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
import { RichHtml } from '@/components/rich-html';
import type { UserAnswer } from '../lib/test-engine';
import classes from './test-dialog.module.css';

/** Rich text that shows nothing (no words, no image); kept here so the test's chunk needs no zod. */
const blank = (html: string | undefined) => !html || (!/<img\b/i.test(html) && html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\u00a0/gi, ' ').trim() === '');

/**
 * The question in the chosen language. A missing or blank translation (of the question or of an
 * option) falls back to English, never to an empty question, and says so (`fallback`: the view
 * shows a note; docs/configuration.md "Machine translation").
 */
export function localized(q: TestQuestion, lang: string): { q: string; ops: Record<string, string>; fallback: boolean } {
  if (lang === 'en') return { q: q.q, ops: q.ops, fallback: false };
  const tr = q.trans[lang];
  let fallback = blank(tr?.q);
  const ops: Record<string, string> = {};
  for (const [k, html] of Object.entries(q.ops)) {
    const own = tr?.ops[k];
    if (blank(own)) fallback = true;
    ops[k] = blank(own) ? html : own!;
  }
  return { q: blank(tr?.q) ? q.q : tr!.q, ops, fallback };
}

/**
 * One question with the input of its type (docs/glossary.md): radios for mcq1, checkboxes for mcq2, a
 * text input for f and a text area for s. Every change is handed up at once to be stored.
 */
/**
 * Memoised: it keeps its answer itself, so stored changes elsewhere need not re-render it.
 * `initial` is read when the view opens only (it is keyed by question): the stored answer
 * catching up with what is on screen does not redraw it.
 */
export const QuestionView = memo(
  QuestionViewBody,
  (a, b) => a.question === b.question && a.lang === b.lang && a.fontSize === b.fontSize && a.onAnswer === b.onAnswer && a.labels === b.labels,
);

/** The view's words, translated once by the test (not by every question view it opens). */
export type QuestionLabels = { chooseOne: string; chooseMany: string; yourAnswer: string; englishFallback: string; numberPlaceholder: string; notANumber: string };

/** The labels a question needs, in the language of `t` (the test screen and the editor's preview). */
export function questionLabels(t: (key: 'chooseOne' | 'chooseMany' | 'yourAnswer' | 'englishFallback' | 'numberPlaceholder' | 'notANumber') => string): QuestionLabels {
  return {
    chooseOne: t('chooseOne'),
    chooseMany: t('chooseMany'),
    yourAnswer: t('yourAnswer'),
    englishFallback: t('englishFallback'),
    numberPlaceholder: t('numberPlaceholder'),
    notANumber: t('notANumber'),
  };
}

/** What may still become a number while it is typed: no message yet. */
const NUMBER_START = /^\s*[-+−]?\.?\s*$/;

/**
 * A numerical answer (docs/exams.md "Numerical questions"): a text field with the phone's decimal
 * keypad. A number (Devanagari digits and − accepted) is stored in ASCII; anything else is said
 * to be no number and stored as no answer, so it is never marked wrong for a typing slip.
 */
function NumberField({ id, initial, onAnswer, labels }: { id: string; initial: string; onAnswer: (ua: UserAnswer) => void; labels: QuestionLabels }) {
  const [bad, setBad] = useState(() => initial.trim() !== '' && normaliseNumber(initial) === null);
  const errorId = `${id}-error`;
  return (
    <div className={classes.field}>
      <label htmlFor={id}>{labels.yourAnswer}</label>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        defaultValue={initial}
        maxLength={40}
        autoComplete="off"
        placeholder={labels.numberPlaceholder}
        aria-invalid={bad || undefined}
        aria-describedby={bad ? errorId : undefined}
        onChange={(e) => {
          const text = e.currentTarget.value;
          const n = normaliseNumber(text);
          setBad(n === null && !NUMBER_START.test(text));
          onAnswer(n ?? '');
        }}
      />
      {bad && (
        <p id={errorId} role="alert" className={classes.fieldError}>
          {labels.notANumber}
        </p>
      )}
    </div>
  );
}

function QuestionViewBody({
  question,
  lang,
  fontSize,
  initial,
  onAnswer,
  labels,
}: {
  question: TestQuestion;
  lang: string;
  fontSize: number;
  initial: UserAnswer | undefined;
  onAnswer: (ua: UserAnswer) => void;
  labels: QuestionLabels;
}) {
  const view = localized(question, lang);
  const keys = Object.keys(view.ops);
  // The inputs keep what the learner chose themselves (uncontrolled, started from the stored
  // answer: the view is keyed by question) and every change is handed up at once to be stored:
  // a tap redraws nothing, and waiting for the stored answer would flicker choices and move
  // the caret while typing.
  const initialChosen = Array.isArray(initial) ? initial : [];
  const chosen = useRef<string[]>(initialChosen);
  const text = typeof initial === 'string' ? initial : '';
  // One radio group per question view.
  const name = useId();

  return (
    <div className={classes.qBody} style={{ fontSize }}>
      {view.fallback && (
        <p role="note" className={classes.fallbackNote}>
          {labels.englishFallback}
        </p>
      )}
      <RichHtml html={view.q} className={classes.qText} />
      {question.qt === 'mcq1' && (
        <div role="radiogroup" aria-label={labels.chooseOne} className={classes.choices}>
          {keys.map((k) => (
            <label key={k} className={classes.option}>
              <input type="radio" name={name} value={k} defaultChecked={initial === k} onChange={() => onAnswer(k)} />
              <RichHtml html={view.ops[k] ?? ''} inline />
            </label>
          ))}
        </div>
      )}
      {question.qt === 'mcq2' && (
        <div role="group" aria-label={labels.chooseMany} className={classes.choices}>
          {keys.map((k) => (
            <label key={k} className={classes.option}>
              <input
                type="checkbox"
                value={k}
                defaultChecked={initialChosen.includes(k)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  chosen.current = keys.filter((x) => (x === k ? on : chosen.current.includes(x)));
                  onAnswer(chosen.current);
                }}
              />
              <RichHtml html={view.ops[k] ?? ''} inline />
            </label>
          ))}
        </div>
      )}
      {/* Native fields too: Mantine's autosizing text area measured itself in a layout effect, a
          forced layout that made a subjective question three times slower to open. */}
      {question.qt === 'f' && (
        <div className={classes.field}>
          <label htmlFor={name}>{labels.yourAnswer}</label>
          <input id={name} type="text" defaultValue={text} maxLength={500} autoComplete="off" onChange={(e) => onAnswer(e.currentTarget.value)} />
        </div>
      )}
      {question.qt === 'n' && <NumberField id={name} initial={text} onAnswer={onAnswer} labels={labels} />}
      {question.qt === 's' && (
        <div className={classes.field}>
          <label htmlFor={name}>{labels.yourAnswer}</label>
          <textarea id={name} defaultValue={text} rows={5} maxLength={5000} onChange={(e) => onAnswer(e.currentTarget.value)} />
        </div>
      )}
    </div>
  );
}
