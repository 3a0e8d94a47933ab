import { IconBulb } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResultQuestion } from '@pm/protocol/sync/exam-result';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
import { RichHtml } from '@/components/rich-html';
import classes from './result-explanation.module.css';

/** Rich text that shows nothing (no words, no image). */
const blank = (html: string | undefined): html is undefined =>
  !html || (!/<img\b/i.test(html) && html.replace(/<[^>]*>/g, '').replace(/&nbsp;|&#160;|\u00a0/gi, ' ').trim() === '');

/**
 * The explanation of a question in the language shown: the translation's own, else the English
 * one (said so); null when the question has none, or when the device does not hold it (a mock
 * test's explanation comes only with the learner's result; docs/exams.md "Explanations").
 */
export function explanationIn(q: ResultQuestion | TestQuestion, lang: string): { html: string; fallback: boolean } | null {
  const own = lang === 'en' ? undefined : q.trans[lang]?.expl;
  if (!blank(own)) return { html: own, fallback: false };
  if (blank(q.expl)) return null;
  return { html: q.expl, fallback: lang !== 'en' };
}

/**
 * The worked solution under a question of the result page (sanitised rich text with formulas and
 * images, as the question is). Self-contained: the result card places it under the answers.
 */
export function ResultExplanation({ question, lang }: { question: ResultQuestion | TestQuestion; lang: string }) {
  const { t } = useTranslation('exam');
  const headingId = useId();
  const shown = explanationIn(question, lang);
  if (!shown) return null;
  return (
    <section className={classes.explanation} aria-labelledby={headingId} data-testid="explanation">
      <h5 id={headingId} className={classes.heading}>
        <IconBulb size={14} aria-hidden /> {t('explanation')}
      </h5>
      {shown.fallback && (
        <p role="note" className={classes.note} data-testid="explanation-english">
          {t('explanationEnglish')}
        </p>
      )}
      <RichHtml html={shown.html} className={classes.body} />
    </section>
  );
}
