import '@mantine/tiptap/styles.css';
import './prosemirror-base.css';

/**
 * Options every tiptap editor of the app is made with: tiptap's base styles come from the
 * stylesheet imported here (with Mantine's editor styles), not from a <style> element tiptap
 * adds and removes at run time (see prosemirror-base.css).
 */
export const EDITOR_BASE = { injectCSS: false } as const;
