import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EDITOR_BASE } from '@/lib/tiptap/editor-base';

/**
 * The set's instructions (`inst`, docs/glossary.md "Question sets": rich text shown on the exam intro): a small tiptap editor
 * with what instructions use — emphasis, lists, a heading — and no links or images. The HTML is
 * sanitised by the server before it is stored. The form keeps the value; the editor starts from
 * it (a loaded set remounts the form, so it never has to be replaced from outside).
 */
export function InstructionsEditor({
  value,
  onChange,
  label,
  description,
  lang,
}: {
  value: string;
  onChange: (html: string) => void;
  /** Another label and hint (the Hindi instructions); the English ones by default. */
  label?: string;
  description?: string;
  lang?: string;
}) {
  const { t } = useTranslation('authoring-bank');
  const labelId = useId();
  const editor = useEditor({
    ...EDITOR_BASE,
    extensions: [StarterKit.configure({ link: false, codeBlock: false, code: false, horizontalRule: false, heading: { levels: [3, 4] } })],
    content: value,
    immediatelyRender: false,
    editorProps: { attributes: { 'aria-labelledby': labelId, role: 'textbox', 'aria-multiline': 'true', ...(lang && { lang }) } },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  return (
    <Input.Wrapper label={label ?? t('form.inst')} labelProps={{ id: labelId }} description={description ?? t('form.instHint')}>
      <RichTextEditor
        editor={editor}
        mt={4}
        labels={{
          boldControlLabel: t('editor.bold'),
          italicControlLabel: t('editor.italic'),
          underlineControlLabel: t('editor.underline'),
          h3ControlLabel: t('editor.heading'),
          bulletListControlLabel: t('editor.bulletList'),
          orderedListControlLabel: t('editor.orderedList'),
          undoControlLabel: t('editor.undo'),
          redoControlLabel: t('editor.redo'),
        }}
      >
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H3 />
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={140} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
