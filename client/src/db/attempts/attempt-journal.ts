import { deleteDB, type IDBPDatabase, openDB, unwrap } from 'idb';
import { afterNextPaint } from '../../lib/after-paint';
import type { TestSummaryDoc } from '@pm/protocol/sync/test-summary';
import type { ReplicaDatabase } from '../core/database';

type Attempt = Omit<TestSummaryDoc, '_deleted'>;
type AnswerEntry = Attempt['answers'][string];

/**
 * One change of an attempt as absolute values (the whole entry of each changed question, the
 * new position, the new elapsed time), so that applying it twice gives the same attempt: after
 * a crash between the attempt's write and the journal's clean-up nothing is counted twice.
 */
export type AttemptPatch = {
  answers?: Record<string, AnswerEntry>;
  index?: number;
  lsq?: string | null;
  selectedSection?: string | null;
  status?: Attempt['status'];
  submittedAt?: number | null;
  elapsed?: number;
  updatedAt: number;
};

const SCALARS = ['index', 'lsq', 'selectedSection', 'status', 'submittedAt', 'elapsed'] as const;

/** The attempt with `patch` applied; a submitted attempt is final and stays as it is. */
export function applyPatch<A extends Attempt>(a: A, patch: AttemptPatch): A {
  return applyPatches(a, [patch]);
}

/**
 * The attempt with `patches` applied in order (as many `applyPatch` calls, with one copy of the
 * answers): once the attempt is submitted the patches after it change nothing.
 */
export function applyPatches<A extends Attempt>(a: A, patches: readonly AttemptPatch[]): A {
  if (a.status === 'SUBMITTED' || patches.length === 0) return a;
  const next: A = { ...a };
  let answers: Record<string, AnswerEntry> | null = null;
  for (const patch of patches) {
    if (next.status === 'SUBMITTED') break;
    next.updatedAt = Math.max(next.updatedAt, patch.updatedAt);
    for (const k of SCALARS) {
      if (patch[k] !== undefined) (next as Record<string, unknown>)[k] = patch[k];
    }
    if (patch.answers) {
      answers ??= { ...a.answers };
      Object.assign(answers, patch.answers);
    }
  }
  if (answers) next.answers = answers;
  return next;
}

/** What changed from `before` to `after`: changed answer entries (by identity) and fields. */
export function patchBetween(before: Attempt, after: Attempt): AttemptPatch {
  const patch: AttemptPatch = { updatedAt: after.updatedAt };
  for (const k of SCALARS) {
    if (after[k] !== before[k] && after[k] !== undefined) (patch as Record<string, unknown>)[k] = after[k];
  }
  if (after.answers !== before.answers) {
    const changed: Record<string, AnswerEntry> = {};
    for (const [qid, entry] of Object.entries(after.answers)) if (before.answers[qid] !== entry) changed[qid] = entry;
    if (Object.keys(changed).length > 0) patch.answers = changed;
  }
  return patch;
}

/**
 * A recorded change; `done` once it is stored in the journal, `applied` once it is in the
 * attempt's document (kept a while for `view`).
 */
type Item = { patch: AttemptPatch; stored: Promise<number>; done: boolean; applied: boolean };
/** Applied changes kept per attempt, for views of a document state older than their write. */
const KEEP_APPLIED = 100;
/** Longest a change waits for a pause before it goes into its document. */
const MAX_WAIT_MS = 10_000;
type Row = { seq?: number; attemptId: string; patch: AttemptPatch };
const STORE = 'changes';

/**
 * Appends a row; resolves with its key once the transaction is complete (stored). Plain
 * IndexedDB on the hot path of every tap: idb's proxies cost about 1 ms a write at 4× CPU
 * throttling (bench:exam).
 */
function addRow(idb: IDBDatabase, row: Row): Promise<number> {
  return new Promise((resolve, reject) => {
    const tx = idb.transaction(STORE, 'readwrite');
    const request = tx.objectStore(STORE).add(row);
    tx.oncomplete = () => resolve(request.result as number);
    tx.onabort = () => reject(tx.error ?? new DOMException('journal write aborted', 'AbortError'));
  });
}

/** The journal's database of a person's replica (deleted with it on "erase"). */
export function journalNameOf(replicaName: string): string {
  return `${replicaName}-journal`;
}

/**
 * The write-ahead journal of test attempts (ARCHITECTURE decision 3: nothing a learner did is
 * lost). Every change in a test is appended here, a single small IndexedDB write, before the
 * screen moves on; the changes then go into the attempt's RxDB document in the background,
 * coalesced, and leave the journal once that write is stored. Changes still in the journal when
 * the app starts (a crash, a closed tab) are applied to their attempts before the replica is
 * handed to the app, so the attempt the learner resumes, and the one replication uploads, has
 * them all. Until a change is in the document, `view` shows the document with it.
 */
export class AttemptJournal {
  private readonly pending = new Map<string, Item[]>();
  private readonly listeners = new Set<() => void>();
  private version = 0;
  private applying: Promise<void> | null = null;
  private scheduled: ReturnType<typeof setTimeout> | null = null;
  private firstWaiting: number | null = null;
  /** Counts changes of `pending`; with the input, the key of `view`'s last answer. */
  private mutations = 0;
  private readonly lastView = new Map<boolean, { input: Attempt; mutations: number; output: Attempt }>();

  /** The same database without idb's proxies, for the append on every tap (addRow). */
  private readonly raw: IDBDatabase;

  private constructor(
    private readonly idb: IDBPDatabase,
    private readonly db: ReplicaDatabase,
    private readonly delayMs: number,
  ) {
    this.raw = unwrap(idb);
  }

  /** Opens the journal's IndexedDB database of a replica (may run while the replica opens). */
  static openStore(replicaName: string): Promise<IDBPDatabase> {
    const opening: Promise<IDBPDatabase> = openDB(journalNameOf(replicaName), 1, {
      upgrade(d) {
        d.createObjectStore(STORE, { keyPath: 'seq', autoIncrement: true });
      },
      // Another tab erases this person's data: let it.
      blocking() {
        void opening.then((idb) => idb.close());
      },
    });
    return opening;
  }

  /**
   * Opens the journal of `db` and applies what an earlier session left in it. The rows of
   * attempts another tab has open (`ownedElsewhere`, db/attempts/attempt-lock: docs/exams.md "Two tabs, storage and eviction") are that
   * tab's: applied here they could land after its newer changes. The owner applies them, or the
   * next owner adopts them (`adopt`).
   */
  static async open(
    db: ReplicaDatabase,
    { delayMs = 1500, store, ownedElsewhere }: { delayMs?: number; store?: Promise<IDBPDatabase>; ownedElsewhere?: () => Promise<Set<string>> } = {},
  ): Promise<AttemptJournal> {
    const idb = await (store ?? AttemptJournal.openStore(db.name));
    const journal = new AttemptJournal(idb, db, delayMs);
    const skip = ownedElsewhere ? await ownedElsewhere() : new Set<string>();
    const rows = (await idb.getAll(STORE)) as Row[];
    journal.load(rows.filter((r) => !skip.has(r.attemptId)));
    await journal.flush();
    return journal;
  }

  /** Rows stored by this tab (or adopted); their changes are in `pending`. */
  private readonly known = new Set<number>();

  private load(rows: Row[]) {
    for (const row of rows) {
      if (this.known.has(row.seq!)) continue;
      this.known.add(row.seq!);
      this.itemsOf(row.attemptId).push({ patch: row.patch, stored: Promise.resolve(row.seq!), done: true, applied: false });
      this.mutations++;
    }
  }

  /**
   * Takes over the changes of an attempt that another tab stored and did not apply (it closed,
   * or crashed, while it owned the attempt) and applies them in their order, before this tab
   * writes the attempt (docs/exams.md "Two tabs, storage and eviction").
   */
  async adopt(attemptId: string): Promise<void> {
    // What this tab applied before it gave the attempt away is in the document the other tab
    // went on from: shown again over that document (`view`), an answer changed there since would
    // look undone (the tabs' clocks need not agree to the millisecond).
    const items = this.pending.get(attemptId);
    if (items?.some((i) => i.applied)) {
      this.pending.set(attemptId, items.filter((i) => !i.applied));
      this.mutations++;
    }
    const rows = (await this.idb.getAll(STORE)) as Row[];
    this.load(rows.filter((r) => r.attemptId === attemptId));
    await this.flush();
  }

  /** Deletes a person's journal (logout with "erase"). */
  static erase(replicaName: string): Promise<void> {
    return deleteDB(journalNameOf(replicaName));
  }

  private itemsOf(attemptId: string): Item[] {
    let items = this.pending.get(attemptId);
    if (!items) {
      items = [];
      this.pending.set(attemptId, items);
    }
    return items;
  }

  private changed() {
    this.version++;
    for (const l of this.listeners) l();
  }

  /**
   * Appends a change of an attempt; resolves once it is stored in IndexedDB. The attempt's
   * document follows at the next pause (see `schedule`), or at `flush`.
   */
  async record(attemptId: string, patch: AttemptPatch): Promise<void> {
    const stored = addRow(this.raw, { attemptId, patch });
    // In the writer's `view` at once (a following change builds on it); on screen once stored.
    // Screens hear of it in a task of their own: the tap's own feedback paints first, then the
    // palette follows, and nothing is drawn while the write is on its way.
    const item: Item = { patch, stored, done: false, applied: false };
    this.itemsOf(attemptId).push(item);
    this.mutations++;
    try {
      this.known.add(await stored);
      item.done = true;
      this.mutations++;
    } finally {
      afterNextPaint(() => this.changed());
    }
    this.schedule();
  }

  /**
   * The attempt as the learner left it: the given state of its document with the changes not
   * in it yet — those not applied, and applied ones newer than that state (a screen may still
   * hold the state from before the write). With `storedOnly`, without the changes still on
   * their way to IndexedDB (what a screen shows: only what is kept).
   */
  view<A extends Attempt>(attempt: A, { storedOnly = false }: { storedOnly?: boolean } = {}): A {
    const items = this.pending.get(attempt.id);
    if (!items) return attempt;
    // Asked on every render of the test and for every change: the same question, the same answer
    // (also the same object, so that what depends on it does not redraw).
    const last = this.lastView.get(storedOnly);
    if (last && last.input === attempt && last.mutations === this.mutations) return last.output as A;
    const patches = items.filter((i) => (i.done || !storedOnly) && (!i.applied || i.patch.updatedAt > attempt.updatedAt)).map((i) => i.patch);
    const output = patches.length === 0 ? attempt : applyPatches(attempt, patches);
    this.lastView.set(storedOnly, { input: attempt, mutations: this.mutations, output });
    return output;
  }

  /** Attempts with changes that are only in the journal so far. */
  waitingAttempts(): string[] {
    return [...this.pending].filter(([, items]) => items.some((i) => !i.applied)).map(([id]) => id);
  }

  private hasUnapplied(): boolean {
    for (const items of this.pending.values()) if (items.some((i) => !i.applied)) return true;
    return false;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  /**
   * Applies the journal when the learner pauses (`delayMs` after the last change, at most
   * `MAX_WAIT_MS` after the first) and the page is idle: the document's write and the
   * re-render it causes then do not compete with the next tap.
   */
  private schedule() {
    const now = Date.now();
    this.firstWaiting ??= now;
    if (this.scheduled !== null) clearTimeout(this.scheduled);
    const wait = Math.max(0, Math.min(this.delayMs, this.firstWaiting + MAX_WAIT_MS - now));
    this.scheduled = setTimeout(() => {
      this.scheduled = null;
      const run = () => {
        this.firstWaiting = null;
        void this.flush().catch((err: unknown) => console.error('attempt journal: apply failed, kept for the next try', err));
      };
      if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 1000 });
      else run();
    }, wait);
  }

  /** Applies every recorded change to the attempts' documents; resolves when they are stored. */
  async flush(): Promise<void> {
    while (this.applying) await this.applying.catch(() => undefined);
    if (!this.hasUnapplied()) return;
    this.applying = this.applyAll();
    try {
      await this.applying;
    } finally {
      this.applying = null;
    }
    // Changes recorded while that write ran.
    if (this.hasUnapplied()) await this.flush();
  }

  private async applyAll(): Promise<void> {
    for (const [attemptId, items] of this.pending) {
      const batch = items.filter((i) => !i.applied);
      if (batch.length === 0) continue;
      const doc = await this.db.test_summary.findOne(attemptId).exec();
      if (doc) {
        await doc.incrementalModify((old) => applyPatches(old as unknown as Attempt, batch.map((i) => i.patch)) as unknown as typeof old);
      }
      // In the document now (or its attempt is gone: erased or never stored): out of the journal.
      const seqs = await Promise.all(batch.map((i) => i.stored));
      const tx = this.idb.transaction(STORE, 'readwrite');
      await Promise.all([...seqs.map((s) => tx.store.delete(s)), tx.done]);
      for (const i of batch) i.applied = true;
      const drop = items.filter((i) => i.applied).length - KEEP_APPLIED;
      if (drop > 0) items.splice(0, drop);
      this.mutations++;
    }
    this.changed();
  }

  /** Applies what is pending and closes the journal. */
  async close(): Promise<void> {
    if (this.scheduled !== null) clearTimeout(this.scheduled);
    this.scheduled = null;
    try {
      await this.flush();
    } finally {
      this.idb.close();
    }
  }
}
