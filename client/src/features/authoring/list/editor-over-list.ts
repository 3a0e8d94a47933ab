import { createContext, lazy } from 'react';
import type { Location } from 'react-router';
import { paths } from '../../../config/paths';

/*
 * The question list's Edit opens the editor over the list (issue 17, 'pm:editor-open' ≤ 300 ms at
 * 4× CPU): the address becomes the editor's own (/question-editor?id=…, so a reload, a copied
 * link and Back behave as before), but the list stays mounted under a dialog instead of being
 * unmounted and the editor's page mounted in its place, which alone cost more than the budget.
 * The list's location travels in the history entry's state; app/router keeps showing it while
 * the editor's address is the real one, and the list page draws the editor over itself.
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

/** The editor's (real) location while it is open over the list; null otherwise. Given by app/router. */
export const EditorOverListContext = createContext<Location | null>(null);

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

/*
 * The editor is drawn at the click's own (urgent) priority: react-router renders a navigation as
 * a transition, which yields to the browser every few milliseconds and, at 4× CPU, took longer
 * than the drawing itself. Edit's click puts the editor's location here first; the list page
 * draws the editor over itself from it at once, and the router's location takes over when its
 * transition commits (the same location, so the editor is not drawn again).
 */
let opening: Location | null = null;
const openingListeners = new Set<() => void>();
const tellOpening = () => openingListeners.forEach((l) => l());
/** Called by Edit's click with the location it navigates to. */
export function openEditorOverList(at: Location): void {
  opening = at;
  tellOpening();
}
/** The router has shown (or dropped) the editor: the early location is no longer needed. */
export function settleEditorOverList(): void {
  if (opening === null) return;
  opening = null;
  tellOpening();
}
export const openingEditor = {
  subscribe(l: () => void) {
    openingListeners.add(l);
    return () => openingListeners.delete(l);
  },
  get: (): Location | null => opening,
};

/** The dialog and the editor in it: their own chunk, loaded on the first Edit (or its hover). */
const loadOverlay = () => import('../editor/question-editor-overlay');
export const QuestionEditorOverlay = lazy(loadOverlay);
/** Starts loading the editor's code before the click (Edit's hover or focus). */
export function preloadEditorOverlay(): void {
  void loadOverlay();
}
