import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const STORAGE_KEY = 'scroll-positions';
const positions = new Map<string, number>(readStored());

function readStored(): [string, number][] {
  try {
    const raw = typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as [string, number][]) : [];
  } catch {
    return [];
  }
}

/**
 * The key a position is kept under. Every full page load of an address the app did not push
 * itself (a link from outside, the payment provider sending the buyer back) has the key
 * "default": keyed on that alone, a page opened that way would be scrolled to wherever another
 * page loaded the same way was left. So "default" entries are told apart by their address.
 */
export const positionKey = (location: { key: string; pathname: string; search: string }) =>
  location.key === 'default' ? `default:${location.pathname}${location.search}` : location.key;

/** How this document was loaded: a reload or Back/Forward may restore, a fresh navigation never. */
function documentLoadRestores(): boolean {
  try {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return nav ? nav.type === 'reload' || nav.type === 'back_forward' : true;
  } catch {
    return true;
  }
}

/** Whether the first location of this document is still the one on screen. */
let firstLocation = true;

/**
 * What react-router's <ScrollRestoration> does in data mode: a new page starts at the top (or
 * at its #hash), Back and Forward return to where the reader was, also after a reload.
 * Positions are kept per history entry (`positionKey`), in sessionStorage across reloads. The
 * first page of a document that was loaded afresh (not reloaded, not reached by Back or
 * Forward) starts at the top whatever was stored: its POP is the load, not a return.
 */
export function useScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const key = positionKey(location);

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    const save = () => {
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...positions].slice(-50)));
      } catch {
        /* storage full or blocked: positions are a nicety */
      }
    };
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('pagehide', save);
      window.history.scrollRestoration = 'auto';
    };
  }, []);

  // Remember the position of the entry being read.
  useEffect(() => {
    const onScroll = () => positions.set(key, window.scrollY);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [key]);

  useLayoutEffect(() => {
    const fresh = firstLocation && !documentLoadRestores();
    firstLocation = false;
    const saved = fresh ? undefined : positions.get(key);
    if (navigationType === 'POP' && saved !== undefined) {
      // After a reload the page's chunk may still be loading: keep trying for about a second,
      // until the page is tall enough to scroll there.
      let frame = 0;
      let tries = 0;
      const restore = () => {
        window.scrollTo(0, saved);
        if (Math.abs(window.scrollY - saved) > 1 && tries++ < 60) frame = requestAnimationFrame(restore);
      };
      restore();
      return () => cancelAnimationFrame(frame);
    }
    if (location.hash) {
      const el = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (el) {
        el.scrollIntoView();
        return;
      }
    }
    window.scrollTo(0, 0);
  }, [key, location.hash, navigationType]);
}
