import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
// KaTeX's styles for the formulas in question text (components/formula-styles).
import '@/components/formula-styles';
import { questionLabels, QuestionView } from './question-view';
import classes from './test-dialog.module.css';

const ignore = () => undefined;

/**
 * One question as the test screen draws it (docs/authoring.md), lent to the question editor through
 * components/preview-context: the test's own QuestionView and styles, in `lang`, at `width` px
 * (a phone's 360 by default), with the words of the test in that language. The inputs are inert:
 * a preview records nothing and cannot be answered.
 */
export default function QuestionPreview({ question, lang, width = 360 }: { question: TestQuestion; lang: string; width?: number }) {
  const { t } = useTranslation('exam', { lng: lang });
  const labels = useMemo(() => questionLabels(t), [t]);
  return (
    <div
      className={classes.question}
      lang={lang}
      inert
      data-testid="question-preview"
      style={{ width, maxWidth: '100%', flex: 'none', overflow: 'visible', border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
    >
      <QuestionView key={`${lang}-${question.qt}`} question={question} lang={lang} fontSize={16} initial={undefined} onAnswer={ignore} labels={labels} />
    </div>
  );
}
