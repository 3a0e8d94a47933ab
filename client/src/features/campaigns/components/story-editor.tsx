import { Input } from '@mantine/core';
import { RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { EDITOR_BASE } from '@/lib/tiptap/editor-base';

/**
 * A campaign's story in one language: the app's rich-text editor (Mantine's tiptap with the
 * shared base of lib/tiptap, as the question editor makes it), with what a story needs: bold,
 * italic, headings, lists, links. It writes HTML; the server sanitises it as it does a
 * question's text (docs/charity.md "A campaign").
 */
export function StoryEditor({ value, onChange, label, lang, error }: { value: string; onChange: (html: string) => void; label: string; lang: 'en' | 'hi'; error?: string }) {
  const { t } = useTranslation('campaign');
  const errorId = useId();
  const editor = useEditor({
    ...EDITOR_BASE,
    extensions: [StarterKit.configure({ link: { openOnClick: false, protocols: ['https', 'mailto'] } })],
    content: value,
    immediatelyRender: true,
    editorProps: {
      attributes: { 'aria-label': label, lang, role: 'textbox', 'aria-multiline': 'true', ...(error ? { 'aria-invalid': 'true', 'aria-describedby': errorId } : {}) },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? '' : e.getHTML()),
  });
  // A value from outside (a draft loaded from the server) replaces the text without echoing back.
  useEffect(() => {
    if (editor && !editor.isDestroyed && value !== (editor.isEmpty ? '' : editor.getHTML())) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  return (
    <Input.Wrapper label={label} labelElement="div" error={error} errorProps={{ id: errorId }}>
      <RichTextEditor
        editor={editor}
        labels={{
          boldControlLabel: t('editor.toolbar.bold'),
          italicControlLabel: t('editor.toolbar.italic'),
          h3ControlLabel: t('editor.toolbar.heading'),
          bulletListControlLabel: t('editor.toolbar.bulletList'),
          orderedListControlLabel: t('editor.toolbar.orderedList'),
          linkControlLabel: t('editor.toolbar.link'),
          unlinkControlLabel: t('editor.toolbar.unlink'),
          undoControlLabel: t('editor.toolbar.undo'),
          redoControlLabel: t('editor.toolbar.redo'),
          linkEditorInputLabel: t('editor.toolbar.linkAddress'),
          linkEditorInputPlaceholder: 'https://',
          linkEditorExternalLink: t('editor.toolbar.externalLink'),
          linkEditorInternalLink: t('editor.toolbar.internalLink'),
          linkEditorSave: t('editor.toolbar.save'),
        }}
        style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
      >
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.H3 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
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
        <RichTextEditor.Content mih={160} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
