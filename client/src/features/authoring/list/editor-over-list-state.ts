import type { Location } from 'react-router';
import { paths } from '@/config/paths';

/*
 * What the question list and the editor drawn over it (editor-over-list.ts) share: where the list
 * was, kept in the editor entry's history state, and whether the editor is open over the list. A
 * file of its own: the editor's dialog (editor/question-editor-overlay.tsx) reads both, and
 * editor-over-list.ts loads that dialog.
 */

/** Where the list was, kept in the editor entry's history state. */
type ListAt = { pathname: string; search: string; hash: string; key: string };
const STATE_KEY = 'editorOverList';

/** The history state of an editor entry opened from the list at `list`. */
export function overListState(list: Pick<Location, 'pathname' | 'search' | 'hash' | 'key'>): Record<string, ListAt> {
  return { [STATE_KEY]: { pathname: list.pathname, search: list.search, hash: list.hash, key: list.key } };
}

/** The list under the editor when `location` is the editor opened from the list's Edit, else null. */
export function listUnderEditor(location: Location): Location | null {
  if (location.pathname !== paths.questionEditor) return null;
  const state: unknown = location.state;
  if (!state || typeof state !== 'object') return null;
  const list = (state as Record<string, Partial<ListAt> | undefined>)[STATE_KEY];
  if (!list || list.pathname !== paths.questionList || typeof list.key !== 'string') return null;
  return { pathname: list.pathname, search: list.search ?? '', hash: list.hash ?? '', key: list.key, state: null };
}

/*
 * While the editor is open over the list, the list is not asked again (a save invalidates the
 * bank's queries): it would redraw beneath the dialog for nothing, and its rows would repeat what
 * the editor shows (a status just approved). The editor, once closed, asks for what went stale.
 */
let editorOpen = false;
/** Whether the list may ask the server now (its queries' `enabled`). */
export const listAsksServer = (): boolean => !editorOpen;
export function setEditorOverListOpen(open: boolean): void {
  editorOpen = open;
}
