import { createContext, lazy } from 'react';
import type { Location } from 'react-router';

/*
 * The question list's Edit opens the editor over the list (docs/benchmarks.md "bench:authoring", 'pm:editor-open' ≤ 300 ms at
 * 4× CPU): the address becomes the editor's own (/question-editor?id=…, so a reload, a copied
 * link and Back behave as before), but the list stays mounted under a dialog instead of being
 * unmounted and the editor's page mounted in its place, which alone cost more than the budget.
 * The list's location travels in the history entry's state; app/router keeps showing it while
 * the editor's address is the real one, and the list page draws the editor over itself.
 */

/** The editor's (real) location while it is open over the list; null otherwise. Given by app/router. */
export const EditorOverListContext = createContext<Location | null>(null);

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
