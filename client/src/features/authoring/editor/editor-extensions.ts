import { type AnyExtension, type Editor, Extension, Mark, mergeAttributes } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { BlockMath, InlineMath } from '@tiptap/extension-mathematics';
import type { Node as PMNode } from '@tiptap/pm/model';
import StarterKit from '@tiptap/starter-kit';
import { MEDIA_URL } from '@pm/protocol/media';

/*
 * The question editor's tiptap extensions: StarterKit, subscript and superscript (chemistry,
 * powers), images (our uploads and https only), inline and block formulas (KaTeX), and the
 * question field's split shortcut.
 */

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    subscript: { toggleSubscript: () => ReturnType };
    superscript: { toggleSuperscript: () => ReturnType };
  }
}

/*
 * Subscript and superscript as marks (<sub>, <sup>). @tiptap/extension-subscript is not among
 * the installed packages; the marks are a few lines, and Mantine's toolbar controls call these
 * commands by name (toggleSubscript / toggleSuperscript).
 */
export const Subscript = Mark.create({
  name: 'subscript',
  excludes: 'superscript',
  parseHTML: () => [{ tag: 'sub' }],
  renderHTML: ({ HTMLAttributes }) => ['sub', mergeAttributes(HTMLAttributes), 0],
  addCommands() {
    return { toggleSubscript: () => ({ commands }) => commands.toggleMark(this.name) };
  },
  addKeyboardShortcuts() {
    return { 'Mod-,': () => this.editor.commands.toggleSubscript() };
  },
});
export const Superscript = Mark.create({
  name: 'superscript',
  excludes: 'subscript',
  parseHTML: () => [{ tag: 'sup' }],
  renderHTML: ({ HTMLAttributes }) => ['sup', mergeAttributes(HTMLAttributes), 0],
  addCommands() {
    return { toggleSuperscript: () => ({ commands }) => commands.toggleMark(this.name) };
  },
  addKeyboardShortcuts() {
    return { 'Mod-.': () => this.editor.commands.toggleSuperscript() };
  },
});

/** Images the editor keeps: our uploads (/media/<sha256>.<ext>) and https addresses. */
export function isAllowedImageSrc(src: string | null | undefined): boolean {
  return Boolean(src && (MEDIA_URL.test(src) || /^https:\/\/[^\s"'<>]+$/i.test(src)));
}

/**
 * Inline, so that a picture can sit in a sentence or be an option on its own. Pasted or loaded
 * HTML with any other source (data:, http:, javascript:) loses the image rather than keeping it.
 */
export const QuestionImage = Image.extend({
  parseHTML() {
    return [{ tag: 'img[src]', getAttrs: (el) => (isAllowedImageSrc((el as HTMLElement).getAttribute('src')) ? null : false) }];
  },
}).configure({ inline: true, allowBase64: false });

/**
 * Ctrl+Enter (also Cmd+Enter) and Shift+Enter run `onSplit` (docs/authoring.md: split the last four
 * paragraphs into options). It outranks the hard break that StarterKit binds to both keys; when
 * `onSplit` declines (nothing to split), the keys do nothing, so the editor is not left
 * wondering whether a line break was meant.
 */
export const SplitShortcut = Extension.create<{ onSplit: (editor: Editor) => boolean }>({
  name: 'splitShortcut',
  priority: 1000,
  addOptions() {
    return { onSplit: () => false };
  },
  addKeyboardShortcuts() {
    const run = () => {
      this.options.onSplit(this.editor);
      return true;
    };
    return { 'Mod-Enter': run, 'Ctrl-Enter': run, 'Shift-Enter': run };
  },
});

export type MathClick = (kind: 'inline' | 'block', node: PMNode, pos: number) => void;

/** The extensions of one field; `onSplit` only for the question's own field. */
export function editorExtensions({ onMathClick, onSplit }: { onMathClick: MathClick; onSplit?: (editor: Editor) => boolean }): AnyExtension[] {
  return [
    // Links are not part of a question (a learner must not be sent off the test).
    StarterKit.configure({ link: false, heading: false, codeBlock: false, code: false, horizontalRule: false }),
    Subscript,
    Superscript,
    QuestionImage,
    InlineMath.configure({ katexOptions: { throwOnError: false }, onClick: (node, pos) => onMathClick('inline', node, pos) }),
    BlockMath.configure({ katexOptions: { throwOnError: false, displayMode: true }, onClick: (node, pos) => onMathClick('block', node, pos) }),
    ...(onSplit ? [SplitShortcut.configure({ onSplit })] : []),
  ];
}
