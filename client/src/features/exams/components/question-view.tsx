import { Stack, Textarea, TextInput } from '@mantine/core';
import { memo, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TestQuestion } from '../../../../../sync-protocol/src/sync/qs-detail';
import { RichHtml } from '../../../components/rich-html';
import type { UserAnswer } from '../lib/test-engine';
import classes from './test-dialog.module.css';

/** The question in the chosen language; a missing translation falls back to English. */
export function localized(q: TestQuestion, lang: string): { q: string; ops: Record<string, string> } {
  const tr = lang === 'en' ? undefined : q.trans[lang];
  return { q: tr?.q || q.q, ops: { ...q.ops, ...(tr?.ops ?? {}) } };
}

/**
 * One question with the input of its type (spec §3): radios for mcq1, checkboxes for mcq2, a
 * text input for f and a text area for s. Every change is handed up at once to be stored.
 */
/** Memoised: it keeps its answer itself, so stored changes elsewhere need not re-render it. */
export const QuestionView = memo(function QuestionView({
  question,
  lang,
  fontSize,
  ua,
  onAnswer,
}: {
  question: TestQuestion;
  lang: string;
  fontSize: number;
  ua: UserAnswer | undefined;
  onAnswer: (ua: UserAnswer) => void;
}) {
  const { t } = useTranslation('exam');
  const view = localized(question, lang);
  const keys = Object.keys(view.ops);
  // The answer is shown from here at once and stored through onAnswer: waiting for RxDB's write
  // to come back would flicker choices and move the caret while typing. The component is keyed
  // by question, so this starts from the stored answer each time a question opens.
  const [local, setLocal] = useState<UserAnswer | undefined>(ua);
  const text = typeof local === 'string' ? local : '';
  // One radio group per question view.
  const name = useId();
  const change = (next: UserAnswer) => {
    setLocal(next);
    onAnswer(next);
  };

  return (
    <Stack gap="md" style={{ fontSize }}>
      <RichHtml html={view.q} className={classes.qText} />
      {question.qt === 'mcq1' && (
        <div role="radiogroup" aria-label={t('chooseOne')} className={classes.choices}>
          {keys.map((k) => (
            <label key={k} className={classes.option}>
              <input type="radio" name={name} value={k} checked={local === k} onChange={() => change(k)} />
              <RichHtml html={view.ops[k] ?? ''} inline />
            </label>
          ))}
        </div>
      )}
      {question.qt === 'mcq2' && (
        <div role="group" aria-label={t('chooseMany')} className={classes.choices}>
          {keys.map((k) => {
            const chosen = Array.isArray(local) ? local : [];
            return (
              <label key={k} className={classes.option}>
                <input
                  type="checkbox"
                  value={k}
                  checked={chosen.includes(k)}
                  onChange={(e) => change(keys.filter((x) => (x === k ? e.currentTarget.checked : chosen.includes(x))))}
                />
                <RichHtml html={view.ops[k] ?? ''} inline />
              </label>
            );
          })}
        </div>
      )}
      {question.qt === 'f' && (
        <TextInput
          label={t('yourAnswer')}
          value={text}
          maxLength={500}
          styles={{ input: { fontSize } }}
          onChange={(e) => change(e.currentTarget.value)}
        />
      )}
      {question.qt === 's' && (
        <Textarea
          label={t('yourAnswer')}
          value={text}
          autosize
          minRows={5}
          maxLength={5000}
          styles={{ input: { fontSize } }}
          onChange={(e) => change(e.currentTarget.value)}
        />
      )}
    </Stack>
  );
});
