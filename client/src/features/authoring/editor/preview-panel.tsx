import { Loader, Tabs, Text } from '@mantine/core';
import katex from 'katex';
import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TestQuestion } from '@pm/protocol/sync/qs-detail';
import { usePreviews } from '@/components/preview-context';
import type { EditLang } from './question-form';

/** A phone's width (docs/authoring.md: the question exactly as a learner sees it, at 360 px). */
export const PREVIEW_WIDTH = 360;

/** Formula nodes already drawn here (a WeakMap, not a DOM mark: marking would itself be a mutation). */
const drawn = new WeakMap<Element, string>();

/**
 * Draws the formulas of HTML that has not been saved yet: the server renders KaTeX into the
 * stored HTML on save, but what the editor holds are empty `[data-latex]` nodes. Nodes already
 * drawn (saved HTML, or drawn here before) are left alone, so the observer below does not loop
 * on its own drawing, not even for a formula KaTeX can only show as an error.
 */
export function renderMathIn(root: HTMLElement): void {
  for (const node of root.querySelectorAll<HTMLElement>('[data-latex]')) {
    const latex = node.getAttribute('data-latex') ?? '';
    if (drawn.get(node) === latex || node.querySelector('.katex')) continue;
    drawn.set(node, latex);
    const block = node.getAttribute('data-type') === 'block-math';
    try {
      katex.render(latex, node, { throwOnError: false, displayMode: block });
    } catch {
      node.textContent = latex;
    }
  }
}

/** One preview, its formulas drawn whenever the test screen's view (re)draws its HTML. */
function LanguagePreview({ question, lang }: { question: TestQuestion; lang: EditLang }) {
  const { QuestionPreview } = usePreviews();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    renderMathIn(root);
    // The view is lazy and redraws its HTML when the question changes: draw again after each change.
    const observer = new MutationObserver(() => renderMathIn(root));
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} data-testid={`preview-${lang}`}>
      <Suspense fallback={<Loader size="sm" />}>
        <QuestionPreview question={question} lang={lang} width={PREVIEW_WIDTH} />
      </Suspense>
    </div>
  );
}

/**
 * The editor's preview (docs/authoring.md): the question as the test screen shows it, drawn by the test
 * screen's own view (lent through components/preview-context), in English and in Hindi, at a
 * phone's width. A language without a translation shows the English text, as a learner would see.
 */
export function PreviewPanel({ question, lang, onLang, hasHindi }: { question: TestQuestion; lang: EditLang; onLang: (l: EditLang) => void; hasHindi: boolean }) {
  const { t } = useTranslation('authoring-editor');
  return (
    <section aria-label={t('preview.title')}>
      <Tabs value={lang} onChange={(v) => v && onLang(v as EditLang)} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="en">{t('preview.en')}</Tabs.Tab>
          <Tabs.Tab value="hi">{t('preview.hi')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="en" pt="xs">
          <LanguagePreview question={question} lang="en" />
        </Tabs.Panel>
        <Tabs.Panel value="hi" pt="xs">
          {!hasHindi && (
            <Text size="xs" c="dimmed" mb={4}>
              {t('preview.noHindi')}
            </Text>
          )}
          <LanguagePreview question={question} lang="hi" />
        </Tabs.Panel>
      </Tabs>
    </section>
  );
}
