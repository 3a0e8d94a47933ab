import { Button, Group, Popover, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { IconMathFunction } from '@tabler/icons-react';
import type { Editor } from '@tiptap/react';
import katex from 'katex';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A formula being written: a new one (`pos` null) or the one at `pos`, inline or on its own line. */
export type FormulaTarget = { latex: string; block: boolean; pos: number | null };

/** The formula's preview as KaTeX draws it; a mistake shows in red (throwOnError false), not as an exception. */
function renderPreview(latex: string, block: boolean): string {
  return katex.renderToString(latex, { throwOnError: false, displayMode: block, output: 'htmlAndMathml' });
}

/**
 * The toolbar's formula control (docs/authoring.md): a LaTeX input with a live KaTeX preview, inserting
 * an inline formula or one on its own line. A click on a formula in the text opens it here to
 * be changed or removed (the field passes its position as `target`).
 */
export function FormulaControl({ editor, target, onTarget }: { editor: Editor | null; target: FormulaTarget | null; onTarget: (t: FormulaTarget | null) => void }) {
  const { t } = useTranslation('authoring-editor');
  return (
    <Popover opened={target !== null} onDismiss={() => onTarget(null)} position="bottom-start" width={340} trapFocus withinPortal shadow="md">
      <Popover.Target>
        <RichTextEditor.Control
          aria-label={t('formula.insert')}
          title={t('formula.insert')}
          aria-haspopup="dialog"
          aria-expanded={target !== null}
          onClick={() => onTarget(target ? null : { latex: '', block: false, pos: null })}
          disabled={!editor}
        >
          <IconMathFunction size={16} stroke={1.5} aria-hidden />
        </RichTextEditor.Control>
      </Popover.Target>
      {/* A dialog named by its control ("Insert formula"), as Mantine's popover makes it. */}
      <Popover.Dropdown>
        {target && <FormulaForm key={target.pos ?? 'new'} editor={editor} target={target} onDone={() => onTarget(null)} />}
      </Popover.Dropdown>
    </Popover>
  );
}

function FormulaForm({ editor, target, onDone }: { editor: Editor | null; target: FormulaTarget; onDone: () => void }) {
  const { t } = useTranslation('authoring-editor');
  const [latex, setLatex] = useState(target.latex);
  const [block, setBlock] = useState(target.block);
  const previewId = useId();
  const preview = useMemo(() => (latex.trim() ? renderPreview(latex, block) : ''), [latex, block]);
  const editing = target.pos !== null;

  const apply = () => {
    if (!editor || !latex.trim()) return;
    const value = latex.trim();
    const chain = editor.chain().focus();
    if (editing && target.pos !== null) {
      if (block === target.block) {
        (block ? chain.updateBlockMath({ latex: value, pos: target.pos }) : chain.updateInlineMath({ latex: value, pos: target.pos })).run();
      } else {
        // Inline ↔ own line: the old node goes and the other kind takes its place.
        (target.block ? chain.deleteBlockMath({ pos: target.pos }) : chain.deleteInlineMath({ pos: target.pos })).run();
        (block ? editor.chain().focus().insertBlockMath({ latex: value, pos: target.pos }) : editor.chain().focus().insertInlineMath({ latex: value, pos: target.pos })).run();
      }
    } else {
      (block ? chain.insertBlockMath({ latex: value }) : chain.insertInlineMath({ latex: value })).run();
    }
    onDone();
  };
  const remove = () => {
    if (!editor || target.pos === null) return;
    const chain = editor.chain().focus();
    (target.block ? chain.deleteBlockMath({ pos: target.pos }) : chain.deleteInlineMath({ pos: target.pos })).run();
    onDone();
  };

  return (
    <Stack gap="xs">
      <Textarea
        label={t('formula.latex')}
        description={t('formula.latexHint')}
        value={latex}
        onChange={(e) => setLatex(e.currentTarget.value)}
        autosize
        minRows={2}
        maxRows={6}
        data-autofocus
        spellCheck={false}
        autoComplete="off"
        dir="ltr"
        aria-describedby={previewId}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            apply();
          }
        }}
      />
      <SegmentedControl
        aria-label={t('formula.display')}
        value={block ? 'block' : 'inline'}
        onChange={(v) => setBlock(v === 'block')}
        data={[
          { value: 'inline', label: t('formula.inline') },
          { value: 'block', label: t('formula.block') },
        ]}
        size="xs"
      />
      <div>
        <Text size="xs" c="dimmed">
          {t('formula.preview')}
        </Text>
        {/* KaTeX's own markup (trust off: no \href or \htmlClass), so it is safe to insert. */}
        <div id={previewId} data-testid="formula-preview" aria-live="polite" style={{ minHeight: 32, overflowX: 'auto' }} dangerouslySetInnerHTML={{ __html: preview }} />
      </div>
      <Group justify="flex-end" gap="xs">
        {editing && (
          <Button variant="subtle" color="red" size="xs" onClick={remove}>
            {t('formula.remove')}
          </Button>
        )}
        <Button variant="default" size="xs" onClick={onDone}>
          {t('actions.cancel')}
        </Button>
        <Button size="xs" onClick={apply} disabled={!latex.trim()}>
          {editing ? t('formula.update') : t('formula.insertButton')}
        </Button>
      </Group>
    </Stack>
  );
}
