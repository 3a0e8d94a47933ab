import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { type Editor, useEditor } from '@tiptap/react';
import { memo, useEffect, useId, useLayoutEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
// KaTeX's styles, for the formulas in the fields, the formula preview and the learner preview.
import '@/components/formula-styles';
import { sanitizeHtml } from '@/components/rich-html';
import { useStableCallback } from '@/hooks/use-stable-callback';
import { editorExtensions, type MathClick } from './editor-extensions';
import { FormulaControl, type FormulaTarget } from './formula-control';
import { ImageControl } from './image-control';
import classes from './rich-text-field.module.css';
import { EDITOR_BASE } from '@/lib/tiptap/editor-base';

/** What the field holds: its HTML, '' when nothing is written (so blank compares as blank). */
const htmlOf = (e: Editor) => (e.isEmpty ? '' : e.getHTML());

type Props = {
  label: string;
  value: string;
  onChange: (html: string) => void;
  lang: string;
  error?: string;
  onSplit?: (editor: Editor) => boolean;
  minHeight?: number;
  visibleLabel?: boolean;
  /**
   * False: the text is drawn as it is (sanitised HTML in the same frame) and the editor is made
   * when this turns true, or at once when the box is pressed or focused. Opening a question draws
   * its options this way first (docs/benchmarks.md "bench:authoring": 'pm:editor-open'), so that only the question's own
   * editor is made before the first frame.
   */
  live?: boolean;
  /** False: room of the toolbar's height, the toolbar itself comes when this turns true. */
  withToolbar?: boolean;
};

/**
 * Memoised on its data, not its callbacks: the form re-renders on every keystroke, and the
 * question editor's callbacks only use what the field is keyed by (its option, its language)
 * and functional state updates, so a field whose text, label and error are unchanged need not
 * redraw its toolbar.
 */
export const RichTextField = memo(RichTextFieldSwitch, (a, b) =>
  (Object.keys({ ...a, ...b }) as (keyof Props)[]).every((k) => typeof a[k] === 'function' || typeof b[k] === 'function' ? Boolean(a[k]) === Boolean(b[k]) : a[k] === b[k]),
);

/** The toolbar's controls (26 px with their border) and its padding, as Mantine draws them. */
const TOOLBAR_HEIGHT = 'calc(1.625rem * var(--mantine-scale) + 2 * var(--mantine-spacing-xs) + 1px)';

/** The field drawn before its editor is made: the same frame, label and text, not yet editable. */
function StaticField({ label, value, lang, error, minHeight = 80, visibleLabel = true, onWanted }: Props & { onWanted: () => void }) {
  const labelId = useId();
  return (
    <Input.Wrapper label={visibleLabel ? label : undefined} labelElement="div" error={error} id={labelId}>
      <RichTextEditor editor={null} style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}>
        <div className={classes.toolbarRoom} style={{ height: TOOLBAR_HEIGHT }} aria-hidden />
        {/* Pressing (or tabbing into) the box makes its editor at once, which then takes the focus. */}
        <div
          className={classes.staticContent}
          style={{ minHeight }}
          lang={lang}
          role="textbox"
          aria-label={label}
          aria-multiline="true"
          aria-readonly="true"
          tabIndex={0}
          onPointerDown={(e) => {
            e.preventDefault();
            onWanted();
          }}
          onFocus={onWanted}
          // Sanitised as everywhere the bank's HTML is shown (components/rich-html).
          dangerouslySetInnerHTML={{ __html: sanitizeHtml(value) }}
        />
      </RichTextEditor>
    </Input.Wrapper>
  );
}

function RichTextFieldSwitch(props: Props) {
  const { live = true } = props;
  // Pressed before it was made live: made now, and focused once it exists.
  const [wanted, setWanted] = useState(false);
  if (!live && !wanted) return <StaticField {...props} onWanted={() => flushSync(() => setWanted(true))} />;
  return <RichTextFieldBody {...props} autoFocus={wanted} />;
}

/**
 * One rich-text field of the question editor (the question, or an option): Mantine's tiptap
 * editor with bold, italic, underline, subscript, superscript, lists, formulas and images.
 * `label` names the text box itself (the e2e tests and screen readers find "Question",
 * "Option A" by it). `onSplit` makes Ctrl+Enter / Shift+Enter split the text (question only).
 */
function RichTextFieldBody({
  label,
  value,
  onChange,
  lang,
  error,
  onSplit,
  minHeight = 80,
  visibleLabel = true,
  withToolbar = true,
  autoFocus = false,
}: Props & { autoFocus?: boolean }) {
  const { t } = useTranslation('authoring-editor');
  const [formula, setFormula] = useState<FormulaTarget | null>(null);
  const errorId = useId();
  // The editor is made once; what it calls back is stable and calls this render's props.
  const changed = useStableCallback((e: Editor) => onChange(htmlOf(e)));
  const split = useStableCallback((e: Editor) => Boolean(onSplit?.(e)));
  const mathClicked = useStableCallback<Parameters<MathClick>, void>((kind, node, pos) =>
    setFormula({ latex: String(node.attrs.latex ?? ''), block: kind === 'block', pos }),
  );
  const hasSplit = Boolean(onSplit);
  const extensions = useMemo(() => editorExtensions({ onMathClick: mathClicked, onSplit: hasSplit ? split : undefined }), [mathClicked, split, hasSplit]);

  // tiptap compares its options on every render and applies what changed (editor.setOptions):
  // kept equal unless the box's name, language or error state change, so typing in one field
  // does not reconfigure every editor. The text itself follows `value` in the effect below.
  const [initialContent] = useState(value);
  const editorProps = useMemo(
    () => ({
      attributes: {
        'aria-label': label,
        lang,
        role: 'textbox',
        'aria-multiline': 'true',
        ...(error ? { 'aria-invalid': 'true', 'aria-describedby': errorId } : {}),
      },
    }),
    [label, lang, error, errorId],
  );
  const editor = useEditor({
    ...EDITOR_BASE,
    extensions,
    content: initialContent,
    // Made in the first render (this app has no server rendering): no second pass to show it.
    immediatelyRender: true,
    editorProps,
    onUpdate: ({ editor: e }) => changed(e),
  });
  // Made because it was pressed or focused before it was live: the caret goes there before the
  // next key is handled (in the same task as the press, so no keystroke goes elsewhere).
  const [focusFirst] = useState(autoFocus);
  useLayoutEffect(() => {
    if (focusFirst && editor && !editor.isDestroyed) editor.commands.focus('end');
  }, [focusFirst, editor]);

  // A value from outside (a loaded or reset question, the split shortcut) replaces the text
  // without echoing back as a change.
  useEffect(() => {
    if (editor && !editor.isDestroyed && value !== htmlOf(editor)) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  return (
    <Input.Wrapper label={visibleLabel ? label : undefined} labelElement="div" error={error} errorProps={{ id: errorId }}>
      <RichTextEditor
        editor={editor}
        labels={{
          boldControlLabel: t('toolbar.bold'),
          italicControlLabel: t('toolbar.italic'),
          underlineControlLabel: t('toolbar.underline'),
          subscriptControlLabel: t('toolbar.subscript'),
          superscriptControlLabel: t('toolbar.superscript'),
          bulletListControlLabel: t('toolbar.bulletList'),
          orderedListControlLabel: t('toolbar.orderedList'),
          undoControlLabel: t('toolbar.undo'),
          redoControlLabel: t('toolbar.redo'),
        }}
        style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
      >
        {withToolbar ? (
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Subscript />
            <RichTextEditor.Superscript />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <FormulaControl editor={editor} target={formula} onTarget={setFormula} />
            <ImageControl editor={editor} />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        ) : (
          <div className={classes.toolbarRoom} style={{ height: TOOLBAR_HEIGHT }} aria-hidden />
        )}
        <RichTextEditor.Content className={classes.content} mih={minHeight} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
