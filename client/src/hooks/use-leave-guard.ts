import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

/**
 * Asks before leaving a form with unsaved changes ('Discard Changes?'): the
 * back office's forms and the question editor.
 * The app uses react-router's declarative BrowserRouter, where `useBlocker` is not available
 * (it needs the data router, which the first-page bundle budget rules out), so this catches
 * what leaving looks like here: a click on an in-app link (side menu, header) is held and
 * replayed after "Discard"; closing or reloading the tab gets the browser's own warning
 * (beforeunload). The browser's Back button is not intercepted.
 */
export function useLeaveGuard(dirty: boolean) {
  const navigate = useNavigate();
  const [pendingHref, setPendingHref] = useState<string | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.('a[href]');
      if (!(a instanceof HTMLAnchorElement) || a.target === '_blank') return;
      const url = new URL(a.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      const to = url.pathname + url.search + url.hash;
      if (to === window.location.pathname + window.location.search + window.location.hash) return;
      e.preventDefault();
      e.stopPropagation();
      setPendingHref(to);
    };
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    document.addEventListener('click', onClick, true);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      document.removeEventListener('click', onClick, true);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [dirty]);

  return {
    /** Whether the 'Discard Changes?' question is open. */
    asking: pendingHref !== null,
    discard: () => {
      const to = pendingHref;
      setPendingHref(null);
      if (to) void navigate(to);
    },
    stay: () => setPendingHref(null),
  };
}
