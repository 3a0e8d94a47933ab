import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { EDITOR_BASE } from '@/lib/tiptap/editor-base';

/**
 * A rich-text editor (Mantine's tiptap editor; StarterKit 3 brings headings, lists, bold,
 * italic, underline, links, undo). Produces HTML, which the server sanitises before storing.
 */
export function HtmlEditor({ value, onChange, label, lang }: { value: string; onChange: (html: string) => void; label: string; lang: 'en' | 'hi' }) {
  const { t } = useTranslation('admin-content');
  const editor = useEditor({
    ...EDITOR_BASE,
    extensions: [StarterKit.configure({ link: { openOnClick: false, protocols: ['https', 'mailto'] } })],
    content: value,
    immediatelyRender: false,
    editorProps: { attributes: { 'aria-label': label, lang, role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  // A new page (or a reload from the server) replaces the text without adding an undo step.
  useEffect(() => {
    if (editor && value !== (editor.isEmpty ? '' : editor.getHTML())) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <RichTextEditor
      editor={editor}
      labels={{
        boldControlLabel: t('editor.bold'),
        italicControlLabel: t('editor.italic'),
        underlineControlLabel: t('editor.underline'),
        h2ControlLabel: t('editor.h2'),
        h3ControlLabel: t('editor.h3'),
        bulletListControlLabel: t('editor.bulletList'),
        orderedListControlLabel: t('editor.orderedList'),
        linkControlLabel: t('editor.link'),
        unlinkControlLabel: t('editor.unlink'),
        undoControlLabel: t('editor.undo'),
        redoControlLabel: t('editor.redo'),
        linkEditorInputLabel: t('editor.linkAddress'),
        linkEditorInputPlaceholder: 'https://',
        linkEditorExternalLink: t('editor.externalLink'),
        linkEditorInternalLink: t('editor.internalLink'),
        linkEditorSave: t('editor.save'),
      }}
    >
      <RichTextEditor.Toolbar sticky stickyOffset={56}>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Bold />
          <RichTextEditor.Italic />
          <RichTextEditor.Underline />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.H2 />
          <RichTextEditor.H3 />
          <RichTextEditor.BulletList />
          <RichTextEditor.OrderedList />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Link />
          <RichTextEditor.Unlink />
        </RichTextEditor.ControlsGroup>
        <RichTextEditor.ControlsGroup>
          <RichTextEditor.Undo />
          <RichTextEditor.Redo />
        </RichTextEditor.ControlsGroup>
      </RichTextEditor.Toolbar>
      <RichTextEditor.Content mih={240} />
    </RichTextEditor>
  );
}
