import { MSG } from '@pm/protocol/messages';
import { type QuestionInput, questionInputSchema, type QuestionView } from '@pm/protocol/question';
import type { RxDocumentData } from 'rxdb';
import type { EdQuestion, EditorReplica } from '@/db/editor/editor-replica';
import { whenIdle } from '@/lib/after-paint';
import { ApiError } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { translateServerMessage } from '@/lib/server-messages';
import type { QuestionFilters } from '../api/question-filters';

/*
 * The question bank's calls answered from the editor's replica while the device is offline
 * (docs/authoring.md "Offline authoring"): the same shapes as the API's answers, so the list and the editor work unchanged.
 * A save is checked by the same zod rules as the server's and stored on the device; the
 * replication uploads it when the network is back (conflicts and refusals: db/editor/editor-replica.ts).
 */

export function toView(d: EdQuestion): QuestionView {
  return {
    id: d.id,
    q: d.q,
    ops: d.ops,
    c: d.c,
    d: d.d,
    ca: d.ca,
    qt: d.qt,
    s: d.s,
    t: d.t,
    e: d.e,
    st: d.st,
    reason: d.reason,
    trans: d.trans,
    expl: d.expl ?? '',
    version: d.version,
    createdAt: d.updatedAt,
    updatedAt: d.updatedAt,
    createdBy: null,
    updatedBy: null,
  } as QuestionView;
}

const words = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .toLowerCase();

/** What a text search looks in: the question, options and answers, and each translation's, lowercase and without tags. */
function searchText(d: EdQuestion): string {
  return [d.q, ...Object.values(d.ops), ...d.ca, ...Object.values(d.trans).flatMap((t) => [t.q, ...Object.values(t.ops)])].map(words).join(' ');
}

/**
 * A question as the search keeps it: the document, and its search text, made the first time a
 * search needs it (a new version of the document starts without).
 */
type Entry = { doc: EdQuestion; text: string | null; gone: boolean };

const textOf = (e: Entry) => (e.text ??= searchText(e.doc));

/** The list's filters as one test (the server's meaning: any of the values of a filter, and all the filters). */
function compile(f: QuestionFilters): (e: Entry) => boolean {
  const set = (v: readonly string[] | undefined) => (v?.length ? new Set<string>(v) : null);
  const [s, c, t, ex, qt, d, st] = [f.s, f.c, f.t, f.e, f.qt, f.d, f.st].map(set);
  const anyOf = (want: Set<string> | null | undefined, have: readonly string[]) => !want || have.some((h) => want.has(h));
  const search = f.search?.trim().toLowerCase();
  // Each word is a run without white space: it is found in the text when some word there holds it.
  const needles = search ? search.split(/\s+/) : null;
  return (e) => {
    const q = e.doc;
    if (s && !(q.s && s.has(q.s))) return false;
    if (!anyOf(c, q.c) || !anyOf(t, q.t) || !anyOf(ex, q.e)) return false;
    if ((qt && !qt.has(q.qt)) || (d && !d.has(q.d)) || (st && !st.has(q.st))) return false;
    if (needles) {
      const text = textOf(e);
      if (!needles.every((w) => text.includes(w))) return false;
    }
    return true;
  };
}

/** Whether a question passes the list's filters (the server's meaning: any of the values of a filter). */
export function matches(d: EdQuestion, f: QuestionFilters): boolean {
  return compile(f)({ doc: d, text: null, gone: false });
}

/** The list's order: last changed first, then by id (descending), as the server's. */
const newestFirst = (a: Entry, b: Entry) => b.doc.updatedAt - a.doc.updatedAt || (a.doc.id < b.doc.id ? 1 : a.doc.id > b.doc.id ? -1 : 0);

/** A stored document without RxDB's own fields. */
function plain(data: RxDocumentData<EdQuestion>): EdQuestion {
  const { _rev: _r, _meta: _m, _attachments: _a, _deleted: _d, ...doc } = data;
  return doc;
}

/*
 * The bank's search on the device (docs/benchmarks.md "bench:authoring": a search ≤ 100 ms at 50,000 questions).
 * Reading and converting every document from IndexedDB on each call took about a second at that
 * size; instead each open replica gets an index in memory: its questions in the list's order,
 * loaded once and then kept up to date from the collection's change events (this tab's saves,
 * the replication's writes, and through RxDB's multi-instance channel another tab's). A search
 * runs the filters over plain objects, and the list's page and its count, asked together with
 * the same filters, share one pass.
 */
class BankIndex {
  private byId = new Map<string, Entry>();
  private order: Entry[] = [];
  private sorted = true;
  private version = 0;
  private last: { key: string; version: number; found: Entry[] } | null = null;

  /** Applies written documents (a deleted one leaves the index). */
  apply(docs: readonly RxDocumentData<EdQuestion>[]) {
    for (const data of docs) {
      const had = this.byId.get(data.id);
      if (data._deleted) {
        if (had) {
          had.gone = true;
          this.byId.delete(data.id);
        }
      } else if (had) {
        had.doc = plain(data);
        had.text = null;
      } else {
        const e: Entry = { doc: plain(data), text: null, gone: false };
        this.byId.set(data.id, e);
        this.order.push(e);
      }
    }
    if (docs.length > 0) {
      this.sorted = false;
      this.version++;
    }
  }

  /**
   * Makes the search texts a few thousand at a time while the page has nothing else to do, so
   * that the first searches after loading do not make them; stops when `stopped()` says so.
   */
  warm(stopped: () => boolean) {
    let i = 0;
    const step = () => {
      if (stopped()) return;
      const end = Math.min(i + 2000, this.order.length);
      for (; i < end; i++) textOf(this.order[i]!);
      if (i < this.order.length) whenIdle(step);
    };
    whenIdle(step);
  }

  /** The questions passing `f`, in the list's order. */
  find(f: QuestionFilters): Entry[] {
    if (!this.sorted) {
      // Nearly sorted after a few changes: the engine's merge sort takes it in about one pass.
      this.order = this.order.filter((e) => !e.gone).sort(newestFirst);
      this.sorted = true;
    }
    const search = f.search?.trim().toLowerCase() ?? '';
    const key = JSON.stringify([f.s, f.c, f.t, f.e, f.qt, f.d, f.st, search]);
    if (this.last?.key === key && this.last.version === this.version) return this.last.found;
    const found = this.order.filter(compile(f));
    this.last = { key, version: this.version, found };
    return found;
  }
}

const indexes = new WeakMap<EditorReplica, Promise<BankIndex>>();

/** The replica's index, loaded the first time a search asks (later changes follow it). */
function indexOf(replica: EditorReplica): Promise<BankIndex> {
  let found = indexes.get(replica);
  if (!found) {
    found = loadIndex(replica);
    indexes.set(replica, found);
    found.catch(() => indexes.delete(replica));
  }
  return found;
}

async function loadIndex(replica: EditorReplica): Promise<BankIndex> {
  const collection = replica.db.ed_question;
  const index = new BankIndex();
  // Listening before reading: a change made while the documents are read is applied after them
  // (in order, so each document ends in its latest state).
  let early: RxDocumentData<EdQuestion>[] | null = [];
  const sub = collection.eventBulks$.subscribe((bulk) => {
    if (bulk.isLocal) return;
    const docs = bulk.events.map((e) => e.documentData as RxDocumentData<EdQuestion>);
    if (early) for (const d of docs) early.push(d);
    else index.apply(docs);
  });
  let closed = false;
  collection.onClose.push(() => {
    closed = true;
    sub.unsubscribe();
  });
  try {
    const start = performance.now();
    const docs = await collection.find().exec();
    index.apply(docs.map((d) => d.toJSON(true) as RxDocumentData<EdQuestion>));
    index.apply(early);
    early = null;
    performance.measure('pm:local-index', { start, detail: { docs: docs.length } });
    index.warm(() => closed);
    return index;
  } catch (err) {
    sub.unsubscribe();
    throw err;
  }
}

/** One page of the questions passing `f`, newest first (GET /api/question's answer). */
export async function localQuestions(replica: EditorReplica, f: QuestionFilters, page: { l: number; o: number }) {
  const start = performance.now();
  const found = (await indexOf(replica)).find(f);
  const answer = { success: true, data: found.slice(page.o, page.o + page.l).map((e) => toView(e.doc)) };
  // Read by scripts/bench-authoring.ts: the call to the answer.
  performance.measure('pm:local-questions', { start });
  return answer;
}

/** How many questions pass `f` (GET /api/question/getQuestionsCount's answer). */
export async function localCount(replica: EditorReplica, f: QuestionFilters) {
  const start = performance.now();
  const answer = { success: true, count: (await indexOf(replica)).find(f).length };
  performance.measure('pm:local-count', { start });
  return answer;
}

export async function localQuestion(replica: EditorReplica, id: string) {
  const d = await replica.db.ed_question.findOne(id).exec();
  if (!d) throw new ApiError(404, i18n.t('authoring-bank:offline.notOnDevice'), 'NOT_FOUND');
  return { success: true, data: toView(d.toJSON() as EdQuestion) };
}

/**
 * A save made offline: the server's rules (zod), then the device; created with a new id when it
 * has none. As online, an edit made from a version older than the device's copy (the replica
 * pulled another editor's save meanwhile) is refused 409 with that copy, for the editor to see
 * both (docs/authoring.md, "Two editors at once").
 */
export async function localSave(replica: EditorReplica, q: QuestionInput & { id?: string; version?: number }) {
  const { id, version, ...rest } = q;
  const parsed = questionInputSchema.safeParse(rest);
  if (!parsed.success) {
    await i18n.loadNamespaces('messages').catch(() => undefined);
    throw new ApiError(400, translateServerMessage(parsed.error.issues[0]?.message ?? ''), 'BAD_REQUEST');
  }
  const before = id ? ((await replica.db.ed_question.findOne(id).exec())?.toJSON() as EdQuestion | undefined) : undefined;
  if (before && version !== undefined && version !== before.version) {
    await i18n.loadNamespaces('messages').catch(() => undefined);
    throw new ApiError(409, translateServerMessage(MSG.questionChanged), 'CONFLICT', { current: toView(before) });
  }
  const v = parsed.data;
  const doc: EdQuestion = {
    id: id ?? crypto.randomUUID(),
    q: v.q,
    ops: v.ops,
    c: v.c,
    d: v.d,
    ca: v.ca,
    qt: v.qt,
    s: v.s ?? null,
    t: v.t,
    e: v.e,
    st: v.st,
    reason: v.st === 'REJECTED' ? (v.reason ?? null) : null,
    expl: v.expl ?? '',
    trans: v.trans as EdQuestion['trans'],
    // The version this edit is based on; 0 for a question made on this device.
    version: before?.version ?? 0,
    updatedAt: Date.now(),
  };
  try {
    await replica.save(doc);
  } catch (err) {
    // Not an answer of the server: the caller's catch would show nothing.
    console.error('saving the question on this device failed', err);
    throw new ApiError(0, i18n.t('authoring-bank:offline.notSaved'), 'LOCAL');
  }
  return { success: true, id: doc.id, msg: i18n.t('authoring-bank:offline.savedOnDevice') as string, data: toView(doc) };
}

export async function localDelete(replica: EditorReplica, id: string) {
  await replica.remove(id);
  return { success: true, msg: i18n.t('authoring-bank:offline.deletedOnDevice') as string };
}
