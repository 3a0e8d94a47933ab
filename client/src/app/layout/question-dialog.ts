import { type MouseEvent, useSyncExternalStore } from 'react';
import { mayOpen, ROUTE_ACCESS } from '../../config/route-access';
import { permissionsOf, type Session } from '../../lib/session';

/*
 * Whether the navigation's "Create New Question" dialog is open (the item
 * opens an editor dialog). A tiny store, so that the menu, the drawer and the root layout share
 * it without the editor's code: the dialog itself is a lazy chunk (layout/question-editor-dialog)
 * that the first page never downloads.
 */
let open = false;
let requested = false;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function openQuestionDialog(): void {
  open = true;
  requested = true;
  emit();
}
export function closeQuestionDialog(): void {
  open = false;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
/** `open`: shown now; `requested`: asked for once (the chunk stays mounted, so closing animates). */
export function useQuestionDialog(): { open: boolean; requested: boolean } {
  const isOpen = useSyncExternalStore(subscribe, () => open, () => false);
  const wasRequested = useSyncExternalStore(subscribe, () => requested, () => false);
  return { open: isOpen, requested: wasRequested };
}

/** The navigation item that opens the dialog (nav-model key 'create-question'). */
export const CREATE_QUESTION_KEY = 'create-question';

/**
 * A click on Create New Question: an editor gets the dialog over the page they are on (only
 * editors see the item, nav-model). A click that asks for a new tab or window follows the link.
 */
export function onCreateQuestionClick(e: MouseEvent, session: Session | null): void {
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (!session || !mayOpen(ROUTE_ACCESS.questionEditor, permissionsOf(session))) return;
  e.preventDefault();
  openQuestionDialog();
}
