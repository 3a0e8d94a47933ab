import { Checkbox, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
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
export function QuestionView({
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
  // Typed text is kept here too so that the caret does not jump while RxDB stores each change.
  const [text, setText] = useState(typeof ua === 'string' ? ua : '');

  return (
    <Stack gap="md" style={{ fontSize }}>
      <RichHtml html={view.q} className={classes.qText} />
      {question.qt === 'mcq1' && (
        <Radio.Group value={typeof ua === 'string' ? ua : null} onChange={(v) => onAnswer(v)} aria-label={t('chooseOne')}>
          <Stack gap="sm">
            {keys.map((k) => (
              <Radio
                key={k}
                value={k}
                className={classes.option}
                styles={{ label: { fontSize } }}
                label={<RichHtml html={view.ops[k] ?? ''} inline />}
              />
            ))}
          </Stack>
        </Radio.Group>
      )}
      {question.qt === 'mcq2' && (
        <Checkbox.Group value={Array.isArray(ua) ? ua : []} onChange={(v) => onAnswer(keys.filter((k) => v.includes(k)))} aria-label={t('chooseMany')}>
          <Stack gap="sm">
            {keys.map((k) => (
              <Checkbox
                key={k}
                value={k}
                className={classes.option}
                styles={{ label: { fontSize } }}
                label={<RichHtml html={view.ops[k] ?? ''} inline />}
              />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
      {question.qt === 'f' && (
        <TextInput
          label={t('yourAnswer')}
          value={text}
          maxLength={500}
          styles={{ input: { fontSize } }}
          onChange={(e) => {
            setText(e.currentTarget.value);
            onAnswer(e.currentTarget.value);
          }}
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
          onChange={(e) => {
            setText(e.currentTarget.value);
            onAnswer(e.currentTarget.value);
          }}
        />
      )}
    </Stack>
  );
}
