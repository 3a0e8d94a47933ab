/**
 * One tab owns a test attempt (docs/exams.md "Two tabs, storage and eviction"). The same attempt opened in two tabs of one browser
 * would otherwise have two writers of one journal and one document: each tab computes its
 * changes against what it has seen, and an answer given in one tab could be overwritten by a
 * stale copy from the other, or applied out of order.
 *
 * - With the Web Locks API (every current browser) the owner holds the lock `pm-attempt:<id>`;
 *   the browser releases it when the tab closes or crashes. The other tabs are "read-only" and
 *   wait in the lock's queue, so when the owner's tab closes the next one becomes the owner by
 *   itself (no click needed: nothing can write meanwhile, and its answers are all stored).
 * - A BroadcastChannel carries the take-over: the reader asks, the owner stops accepting
 *   changes, waits for those on their way to IndexedDB, puts its journal into the attempt's
 *   document (`beforeRelease`), tells the new owner which version it left, and releases the
 *   lock. The new owner waits for that version (`afterAcquire`) before it writes anything. An
 *   owner that does not answer (a frozen tab) loses the lock to `steal` after `answerTimeoutMs`.
 * - Without Web Locks (old browsers) the same messages run a small claim protocol on the
 *   channel alone: a claim waits `probeMs` for an owner's answer; two claims at once are settled
 *   by the lower tab id; a closing owner says so on `pagehide`. A crashed owner cannot say so:
 *   there the learner takes over with one click.
 * - Without either, every tab owns its attempt (what the app did before).
 */

/** Where this tab stands with an attempt. */
export type OwnerState =
  /** Asking whether another tab owns it. */
  | 'claiming'
  /** This tab may write the attempt. */
  | 'owner'
  /** Another tab owns it: this one shows it read-only and offers to take over. */
  | 'other'
  /** This tab asked to take over and waits for the owner to hand over. */
  | 'taking-over';

/** The messages between tabs on the channel `pm-attempt-owner`. */
type Message =
  | { type: 'take-over'; attempt: string; from: string }
  | { type: 'handover'; attempt: string; from: string; to: string; version: number | null }
  | { type: 'probe'; attempt: string; from: string }
  | { type: 'owned'; attempt: string; from: string }
  | { type: 'released'; attempt: string; from: string };

type Channel = Pick<BroadcastChannel, 'postMessage' | 'close'> & {
  addEventListener(type: 'message', listener: (e: MessageEvent) => void): void;
};

export type AttemptLockOptions = {
  /** The browser's lock manager; undefined where the API is missing. */
  locks?: LockManager | undefined;
  /** Opens the tabs' channel; null where BroadcastChannel is missing. */
  channel?: (() => Channel) | null;
  /**
   * Called before this tab gives the attempt away (take-over by another tab): writes are
   * refused already; it stores what is on its way and returns the attempt's version (its
   * `updatedAt`) for the next owner to wait for.
   */
  beforeRelease: () => Promise<number | null>;
  /**
   * Called when this tab has become the owner, before it writes: `version` is what the previous
   * owner left (null when it closed without a word).
   */
  afterAcquire: (version: number | null) => Promise<void>;
  /** How long a take-over waits for the owner's answer before it takes the lock anyway. */
  answerTimeoutMs?: number;
  /** Without Web Locks: how long a claim waits for an owner's answer. */
  probeMs?: number;
  /** For tests: this tab's id. */
  tabId?: string;
  /** For tests (no window in Node): where `pagehide` is heard. */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
};

export type AttemptLock = {
  getState(): OwnerState;
  subscribe(listener: () => void): () => void;
  /** Asks the owning tab to hand the attempt over to this one. */
  takeOver(): Promise<void>;
  /**
   * Runs a write if this tab owns the attempt (resolves to false otherwise, writing nothing);
   * a hand-over waits for the writes `run` has started.
   */
  write(run: () => Promise<boolean>): Promise<boolean>;
  /** Gives the attempt up (the test closes in this tab): stores what is pending, then releases. */
  close(): Promise<void>;
};

const CHANNEL = 'pm-attempt-owner';
/** A hand-over to a named tab: other waiting tabs let it have the lock for this long. */
const HANDOVER_RESERVED_MS = 5000;

/** The lock's name for an attempt (also read by the journal, see `attemptsOwnedElsewhere`). */
export function lockNameOf(attemptId: string): string {
  return `pm-attempt:${attemptId}`;
}

function randomId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : String(Math.random()).slice(2);
}

/** The browser's own lock manager and channel, where they exist. */
export function browserLockOptions(): Pick<AttemptLockOptions, 'locks' | 'channel' | 'events'> {
  return {
    locks: typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : undefined,
    channel: typeof BroadcastChannel === 'function' ? () => new BroadcastChannel(CHANNEL) : null,
    events: typeof window !== 'undefined' ? window : null,
  };
}

/**
 * The attempts whose lock another tab of this browser holds now (their journal rows are that
 * tab's to apply). Empty without Web Locks.
 */
export async function attemptsOwnedElsewhere(locks: LockManager | undefined = browserLockOptions().locks): Promise<Set<string>> {
  if (!locks) return new Set();
  try {
    const { held = [] } = await locks.query();
    const prefix = lockNameOf('');
    return new Set(held.flatMap((l) => (l.name?.startsWith(prefix) ? [l.name.slice(prefix.length)] : [])));
  } catch {
    return new Set();
  }
}

export function openAttemptLock(attemptId: string, opts: AttemptLockOptions): AttemptLock {
  const tabId = opts.tabId ?? randomId();
  const name = lockNameOf(attemptId);
  const answerTimeoutMs = opts.answerTimeoutMs ?? 4000;
  const probeMs = opts.probeMs ?? 300;
  const listeners = new Set<() => void>();
  let state: OwnerState = 'claiming';
  let closed = false;
  /** Writes started and not finished: a hand-over waits for them. */
  const inFlight = new Set<Promise<boolean>>();
  /** Ends the current hold of the lock (Web Locks) or the ownership (channel). */
  let releaseHold: (() => void) | null = null;
  /** This tab holds the Web Lock now. */
  let holding = false;
  /** A hand-over in progress to another tab: a waiting tab that is not it lets the lock pass. */
  let reservedFor: { tab: string; until: number } | null = null;
  /** Our take-over: resolved with the version the owner left. */
  let handover: { resolve: (v: number | null) => void; promise: Promise<number | null> } | null = null;
  /** Aborts our place in the lock's queue. */
  let queued: AbortController | null = null;
  /** Without Web Locks: a claim waiting for answers. */
  let probing: { timer: ReturnType<typeof setTimeout> } | null = null;

  const setState = (next: OwnerState) => {
    if (state === next) return;
    state = next;
    for (const l of listeners) l();
  };

  const channel = opts.channel ? opts.channel() : null;
  const post = (m: Message) => {
    try {
      channel?.postMessage(m);
    } catch {
      // A closed channel (the page is going away).
    }
  };

  /** Stops writes, waits for the started ones, stores them and returns the attempt's version. */
  async function quiesce(): Promise<number | null> {
    setState('other');
    await Promise.allSettled([...inFlight]);
    return opts.beforeRelease();
  }

  async function becomeOwner(version: number | null) {
    await opts.afterAcquire(version);
    if (closed) return;
    setState('owner');
  }

  // ---- Web Locks ----

  /** Holds the lock until `releaseHold` is called (or it is stolen). */
  function hold(): Promise<void> {
    holding = true;
    return new Promise<void>((resolve) => {
      releaseHold = () => {
        releaseHold = null;
        holding = false;
        resolve();
      };
    });
  }

  function onLockLost(err: unknown) {
    // Stolen by a tab that did not hear us (we were frozen): read-only now, and back in line.
    if (closed) return;
    if ((err as { name?: string } | null)?.name === 'AbortError' && state === 'owner') {
      releaseHold = null;
      holding = false;
      setState('other');
      queue();
    }
  }

  /** Waits in the lock's queue; becomes the owner when the lock passes to this tab. */
  function queue() {
    if (!opts.locks || closed || queued) return;
    const controller = new AbortController();
    queued = controller;
    opts.locks
      .request(name, { signal: controller.signal }, async () => {
        if (queued === controller) queued = null;
        if (closed) return;
        // Reserved for another tab by a hand-over: let it pass, and wait again.
        if (reservedFor && reservedFor.tab !== tabId && reservedFor.until > Date.now()) {
          setTimeout(queue, 50);
          return;
        }
        const version = handover ? await handover.promise : null;
        handover = null;
        const held = hold();
        await becomeOwner(version);
        await held;
      })
      .catch(onLockLost);
  }

  function claimWithLocks() {
    void opts
      .locks!.request(name, { ifAvailable: true }, async (lock) => {
        if (!lock) {
          if (!closed) {
            setState('other');
            queue();
          }
          return;
        }
        if (closed) return;
        const held = hold();
        await becomeOwner(null);
        await held;
      })
      .catch(onLockLost);
  }

  async function takeOverWithLocks() {
    setState('taking-over');
    let resolve!: (v: number | null) => void;
    const promise = new Promise<number | null>((r) => (resolve = r));
    handover = { resolve, promise };
    post({ type: 'take-over', attempt: attemptId, from: tabId });
    queue();
    // No answer: the owner is frozen or gone without releasing. Take the lock from it.
    setTimeout(() => {
      if (closed || state !== 'taking-over') return;
      // The lock came but the owner's word did not: go on without it (stealing from ourselves
      // would make this tab read-only).
      if (holding) {
        handover?.resolve(null);
        return;
      }
      queued?.abort();
      queued = null;
      handover?.resolve(null);
      handover = null;
      void opts
        .locks!.request(name, { steal: true }, async () => {
          const held = hold();
          await becomeOwner(null);
          await held;
        })
        .catch(onLockLost);
    }, answerTimeoutMs);
  }

  // ---- The channel alone (no Web Locks) ----

  function claimWithChannel() {
    if (!channel) {
      void becomeOwner(null);
      return;
    }
    setState('claiming');
    post({ type: 'probe', attempt: attemptId, from: tabId });
    probing = {
      timer: setTimeout(() => {
        probing = null;
        if (closed || state !== 'claiming') return;
        releaseHold = () => {
          releaseHold = null;
        };
        void becomeOwner(null);
      }, probeMs),
    };
  }

  function takeOverWithChannel() {
    setState('taking-over');
    let resolve!: (v: number | null) => void;
    const promise = new Promise<number | null>((r) => (resolve = r));
    handover = { resolve, promise };
    post({ type: 'take-over', attempt: attemptId, from: tabId });
    const timer = setTimeout(() => handover?.resolve(null), answerTimeoutMs);
    void promise.then(async (version) => {
      clearTimeout(timer);
      handover = null;
      if (closed) return;
      releaseHold = () => {
        releaseHold = null;
      };
      await becomeOwner(version);
    });
  }

  // ---- Messages ----

  const onMessage = (e: MessageEvent) => {
    const m = e.data as Message;
    if (!m || m.attempt !== attemptId || m.from === tabId || closed) return;
    switch (m.type) {
      case 'take-over':
        if (state === 'owner') {
          void (async () => {
            const version = await quiesce();
            reservedFor = { tab: m.from, until: Date.now() + HANDOVER_RESERVED_MS };
            post({ type: 'handover', attempt: attemptId, from: tabId, to: m.from, version });
            releaseHold?.();
            // Back in line: the next owner's tab may close too.
            queue();
          })();
        } else if (state === 'taking-over' && m.from < tabId) {
          // Two tabs asked at once: the lower id takes it.
          setState('other');
          handover?.resolve(null);
        }
        break;
      case 'handover':
        reservedFor = { tab: m.to, until: Date.now() + HANDOVER_RESERVED_MS };
        if (m.to === tabId) handover?.resolve(m.version);
        break;
      case 'probe':
        if (opts.locks) break;
        if (state === 'owner') post({ type: 'owned', attempt: attemptId, from: tabId });
        else if (state === 'claiming' && probing) {
          if (m.from < tabId) {
            clearTimeout(probing.timer);
            probing = null;
            setState('other');
          } else {
            // The other claim may have begun before it could hear ours: it must hear it now.
            post({ type: 'probe', attempt: attemptId, from: tabId });
          }
        }
        break;
      case 'owned':
        if (opts.locks) break;
        if (state === 'claiming' && probing) {
          clearTimeout(probing.timer);
          probing = null;
          setState('other');
        }
        break;
      case 'released':
        // The owner's tab closed: the next in line (here: whoever hears it) claims.
        if (!opts.locks && state === 'other') claimWithChannel();
        break;
    }
  };
  channel?.addEventListener('message', onMessage);

  const onPageHide = () => {
    if (!opts.locks && state === 'owner') post({ type: 'released', attempt: attemptId, from: tabId });
  };
  opts.events?.addEventListener('pagehide', onPageHide);

  if (opts.locks) claimWithLocks();
  else claimWithChannel();

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async takeOver() {
      if (closed || state === 'owner' || state === 'taking-over') return;
      if (opts.locks) await takeOverWithLocks();
      else if (channel) takeOverWithChannel();
      else await becomeOwner(null);
    },
    write(run) {
      if (state !== 'owner' || closed) return Promise.resolve(false);
      const p = run();
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p)).catch(() => undefined);
      return p;
    },
    async close() {
      if (closed) return;
      const wasOwner = state === 'owner';
      if (wasOwner) await quiesce().catch(() => null);
      closed = true;
      if (probing) clearTimeout(probing.timer);
      queued?.abort();
      queued = null;
      if (wasOwner && !opts.locks) post({ type: 'released', attempt: attemptId, from: tabId });
      releaseHold?.();
      opts.events?.removeEventListener('pagehide', onPageHide);
      channel?.close();
      listeners.clear();
    },
  };
}
