/**
 * The server's clock as seen from this device (ARCHITECTURE decision 5). Every sync response
 * carries X-Server-Time; the offset is estimated NTP-style from the request's midpoint and the
 * sample with the shortest round trip of the recent ones wins, because a slow mobile round trip
 * makes the midpoint uncertain by up to half of it. The offset is kept in localStorage so that a
 * test reopened offline still runs on corrected time.
 */
const STORAGE_KEY = 'serverClockOffset';
/** Responses the estimate is taken from (the shortest round trip of these wins). */
export const CLOCK_SAMPLES = 8;

type Sample = { offset: number; rtt: number };

export type ServerClock = {
  /** Records one response: device time when the request left and when the answer arrived. */
  observe(serverTime: number, sentAt: number, receivedAt: number): void;
  /** Server time now (ms). */
  now(): number;
  /** Current estimate of server minus device time (ms). */
  offset(): number;
};

type OffsetStore = { get(): number | null; set(offset: number): void };

function localStorageStore(): OffsetStore {
  return {
    get() {
      try {
        const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
        const n = raw === null || raw === undefined ? NaN : Number(raw);
        return Number.isFinite(n) ? n : null;
      } catch {
        return null;
      }
    },
    set(offset) {
      try {
        globalThis.localStorage?.setItem(STORAGE_KEY, String(Math.round(offset)));
      } catch {
        // Storage full or blocked: the in-memory estimate still works for this session.
      }
    },
  };
}

export function createServerClock(store: OffsetStore = localStorageStore(), deviceNow: () => number = Date.now): ServerClock {
  const samples: Sample[] = [];
  let current = store.get() ?? 0;
  return {
    observe(serverTime, sentAt, receivedAt) {
      if (!Number.isFinite(serverTime) || serverTime <= 0 || receivedAt < sentAt) return;
      const rtt = receivedAt - sentAt;
      samples.push({ offset: serverTime - (sentAt + rtt / 2), rtt });
      if (samples.length > CLOCK_SAMPLES) samples.shift();
      const best = samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
      if (Math.abs(best.offset - current) >= 1) {
        current = Math.round(best.offset);
        store.set(current);
      }
    },
    // Whole milliseconds: times are stored as integers (test_summary.st, updatedAt).
    now: () => Math.round(deviceNow() + current),
    offset: () => current,
  };
}

/** The app's one clock. */
export const serverClock = createServerClock();
