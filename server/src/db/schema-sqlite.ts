import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';

import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';

/*
 * The whole data model (field names: docs/glossary.md). Times are epoch milliseconds unless named otherwise.
 * Tables replicated to devices (tag, question, question_set, attempt, exam_result) carry `rev`,
 * a value of the single server counter in `revision_counter` (ARCHITECTURE decision 2), and a
 * soft-delete flag so that deletions replicate.
 */

const id = () =>
  text('id')
    .primaryKey()
    .$defaultFn(() => randomUUID());
const createdAt = () =>
  integer('created_at')
    .notNull()
    .$defaultFn(() => Date.now());
const json = <T>(name: string) => text(name, { mode: 'json' }).$type<T>();
const replicated = () => ({
  rev: integer('rev').notNull(),
  deleted: integer('deleted', { mode: 'boolean' }).notNull().default(false),
});

/** One row: the last revision handed out. */
export const revisionCounter = sqliteTable('revision_counter', {
  id: integer('id').primaryKey(),
  value: integer('value').notNull(),
});

export const meta = sqliteTable('meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const role = sqliteTable('role', {
  id: id(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  createdAt: createdAt(),
});

export const permission = sqliteTable('permission', {
  id: id(),
  permission: text('permission').notNull().unique(),
  description: text('description').notNull().default(''),
  createdAt: createdAt(),
});

export const rolePermission = sqliteTable(
  'role_permission',
  {
    roleId: text('role_id')
      .notNull()
      .references(() => role.id, { onDelete: 'cascade' }),
    permissionId: text('permission_id')
      .notNull()
      .references(() => permission.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permissionId] })],
);

/** A person (docs/glossary.md "People"). Uplines follow `parent_id` upwards; downlines are the rows pointing here. */
export const person = sqliteTable(
  'person',
  {
    id: id(),
    name: text('name').notNull(),
    mobile: text('mobile').notNull().unique(),
    mobileVerified: integer('mobile_verified', { mode: 'boolean' }).notNull().default(false),
    email: text('email').unique(),
    emailVerified: integer('email_verified', { mode: 'boolean' }).notNull().default(false),
    /**
     * An e-mail address the person asked to change to, waiting for its code (docs/api.md "Profile");
     * `email` stays the address in use until the code is entered. Not unique: a pending address
     * proves nothing until it is verified, and the check that it is free runs at verification.
     */
    pendingEmail: text('pending_email'),
    roleId: text('role_id').references(() => role.id, { onDelete: 'restrict' }),
    status: text('status').notNull().default('ACTIVE'),
    parentId: text('parent_id').references((): AnySQLiteColumn => person.id, { onDelete: 'set null' }),
    paidAmount: real('paid_amount').notNull().default(0),
    amountWithdrawable: real('aw').notNull().default(0),
    totalWithdrawn: real('total_withdrawn').notNull().default(0),
    totalAmountCollected: real('tac').notNull().default(0),
    totalAmountWithdrawable: real('taw').notNull().default(0),
    currentOrbit: integer('curr_orbit').notNull().default(0),
    aadharFront: text('aadhar_front'),
    aadharBack: text('aadhar_back'),
    pan: text('pan'),
    pic: text('pic'),
    amountForNextLevel: real('amount_next_level').notNull().default(0),
    donationQuota: real('dq').notNull().default(0),
    co: text('co'),
    /** "is password reset required": set by an admin reset or an account created on behalf. */
    iprr: integer('iprr').notNull().default(0),
    /**
     * The version of the terms the person last accepted (TERMS_VERSION, docs/configuration.md) and
     * when; null until they have (an account created by staff accepts at its first login).
     */
    termsVersion: text('terms_version'),
    termsAcceptedAt: integer('terms_accepted_at'),
    passwordHash: text('password_hash').notNull(),
    /**
     * The person's permission names, comma-joined, kept by triggers on person_permission and
     * permission (migration 0001) so that authorising a request is one primary-key read.
     * person_permission stays the source of truth.
     */
    permissionNames: text('permission_names').notNull().default(''),
    /** Bumped on password change / admin reset; tokens carrying an older value are refused. */
    tokenVersion: integer('token_version').notNull().default(0),
    /**
     * Bytes of replicated data this person has stored through sync pushes (attempts): charged
     * with one conditional UPDATE per push against a per-person quota (docs/security.md "Times, ranking and sync quotas", CONVENTIONS 12).
     */
    storageBytes: integer('storage_bytes').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer('updated_at')
      .notNull()
      .$defaultFn(() => Date.now()),
  },
  (t) => [index('person_parent_idx').on(t.parentId), index('person_name_idx').on(t.name)],
);

export const personPermission = sqliteTable(
  'person_permission',
  {
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    permissionId: text('permission_id')
      .notNull()
      .references(() => permission.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.personId, t.permissionId] })],
);

export const activityLog = sqliteTable(
  'activity_log',
  {
    id: id(),
    createdAt: createdAt(),
    actionType: text('action_type').notNull(),
    personId: text('person_id').references(() => person.id, { onDelete: 'set null' }),
    /** Actor's name at the time, kept when the actor is later deleted. */
    personName: text('person_name'),
    entityAffected: text('entity_affected').notNull(),
    entityId: text('entity_id').notNull(),
    oldValue: json<unknown>('old_value'),
    newValue: json<unknown>('new_value'),
  },
  (t) => [index('activity_created_idx').on(t.createdAt)],
);

export const tag = sqliteTable(
  'tag',
  {
    tid: text('tid').primaryKey(),
    key: text('key').notNull(),
    tags: json<Record<string, string>>('tags').notNull(),
    createdAt: createdAt(),
    uat: integer('uat').notNull(),
    ...replicated(),
  },
  (t) => [index('tag_key_idx').on(t.key), uniqueIndex('tag_rev_idx').on(t.rev)],
);

export const question = sqliteTable(
  'question',
  {
    id: id(),
    q: text('q').notNull(),
    ops: json<Record<string, string>>('ops').notNull(),
    c: json<string[]>('c').notNull(),
    d: text('d').notNull().default('3'),
    ca: json<string[]>('ca').notNull(),
    qt: text('qt').notNull().default('mcq1'),
    s: text('s'),
    t: json<string[]>('t').notNull(),
    e: json<string[]>('e').notNull(),
    /**
     * Review status (PENDING | APPROVED | REJECTED). A question row is the spec's Question
     * document, field for field, so it keeps the wire's name; an attempt's `st` (its start time)
     * is `startedAt` in the server (docs/glossary.md).
     */
    st: text('st').notNull().default('PENDING'),
    trans: json<Record<string, { q: string; ops: Record<string, string>; ca: string[]; expl?: string; src?: string; mt?: boolean }>>('trans').notNull(),
    /** Why a reviewer rejected the question (status REJECTED); null otherwise. */
    reason: text('reason'),
    /** The explanation (worked solution) in English, sanitised rich text; '' for none (docs/exams.md "Explanations"). */
    expl: text('expl').notNull().default(''),
    /** Version number: 1 when created, +1 with every save, status change or restore (question_version). */
    version: integer('version').notNull().default(1),
    createdBy: text('created_by').references(() => person.id, { onDelete: 'set null' }),
    updatedBy: text('updated_by').references(() => person.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
    ...replicated(),
  },
  (t) => [
    index('question_s_idx').on(t.s),
    uniqueIndex('question_rev_idx').on(t.rev),
    index('question_list_idx').on(t.deleted, t.createdAt, t.id),
    index('question_st_idx').on(t.st),
  ],
);

/** Every version of every question (docs/authoring.md: history, readable diffs, restore). */
export const questionVersion = sqliteTable(
  'question_version',
  {
    questionId: text('question_id')
      .notNull()
      .references(() => question.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The question as it was saved in this version (questionView without ids and times). */
    data: json<Record<string, unknown>>('data').notNull(),
    /** CREATE, UPDATE, STATUS or RESTORE. */
    action: text('action').notNull(),
    actorId: text('actor_id').references(() => person.id, { onDelete: 'set null' }),
    /** Actor's name at the time, kept when the actor is later deleted. */
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.version] })],
);

/**
 * A question's words without markup (question, options and answers, every language): what the
 * list's text search reads. The full-text index question_fts (trigram tokenizer, so that any
 * three characters of Hindi or English match) is an external-content FTS5 table over `body`,
 * kept up to date by triggers (raw SQL in migration 0007). Its own integer key, because the
 * rowid of `question` (a text-keyed table) is not stable across VACUUM.
 */
export const questionSearch = sqliteTable('question_search', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  questionId: text('question_id')
    .notNull()
    .unique()
    .references(() => question.id, { onDelete: 'cascade' }),
  body: text('body').notNull(),
});

/**
 * A file of questions imported (docs/authoring.md "Import and export"): CSV, Moodle GIFT or Aiken. Kept so that the same
 * file (or the same rows) imported again is recognised and can be skipped.
 */
export const questionImport = sqliteTable(
  'question_import',
  {
    id: id(),
    fileName: text('file_name').notNull(),
    /** SHA-256 (hex) of the file's bytes. */
    fileHash: text('file_hash').notNull(),
    /** csv, gift or aiken. */
    format: text('format').notNull(),
    personId: text('person_id').references(() => person.id, { onDelete: 'set null' }),
    /** Rows in the file, and questions stored from it. */
    rows: integer('rows').notNull(),
    stored: integer('stored').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('question_import_hash_idx').on(t.fileHash)],
);

/** One imported row: the hash of its normalised content and the question it became. */
export const questionImportRow = sqliteTable(
  'question_import_row',
  {
    /** SHA-256 (hex) of the row's normalised question (type, texts, options, answers). */
    hash: text('hash').primaryKey(),
    questionId: text('question_id')
      .notNull()
      .references(() => question.id, { onDelete: 'cascade' }),
    importId: text('import_id')
      .notNull()
      .references(() => questionImport.id, { onDelete: 'cascade' }),
  },
  (t) => [index('question_import_row_q_idx').on(t.questionId)],
);

/** Which tags (groups c, s, t, e) a question carries: the list filters read this, not the JSON. */
export const questionTag = sqliteTable(
  'question_tag',
  {
    tid: text('tid').notNull(),
    questionId: text('question_id')
      .notNull()
      .references(() => question.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.tid, t.questionId] }), index('question_tag_q_idx').on(t.questionId)],
);

export type SectionRow = {
  ss: boolean;
  q: string[];
  mpq: number;
  tm: number;
  nm: number;
  o: number;
  /** The name in other languages (docs/authoring.md "Set texts in two languages"). */
  names?: Partial<Record<string, string>>;
  sub?: Record<string, { q: string[]; mpq: number; tm: number; nm: number; o: number; names?: Partial<Record<string, string>> }>;
};

export const questionSet = sqliteTable(
  'question_set',
  {
    id: id(),
    l: text('l').notNull(),
    mpq: real('mpq').notNull(),
    tm: real('tm').notNull(),
    nm: real('nm').notNull().default(0),
    dur: integer('dur').notNull().default(0),
    isM: integer('is_m', { mode: 'boolean' }).notNull().default(false),
    /** Free for everyone (docs/payments.md "Without a plan"): uses no plan allowance. */
    free: integer('free', { mode: 'boolean' }).notNull().default(false),
    inst: text('inst').notNull().default(''),
    q: json<string[]>('q').notNull(),
    sections: json<Record<string, SectionRow>>('sections').notNull(),
    /** Publish time in minutes since the epoch (docs/glossary.md "Question sets"). */
    pts: integer('pts').notNull(),
    /**
     * Whether learners see the set: set by the publish job when `pts` passes (with a new `rev`,
     * so that devices pull it), cleared when an editor moves `pts` into the future.
     */
    published: integer('published', { mode: 'boolean' }).notNull().default(false),
    /**
     * When the set was first published (ms, server clock); null while it never was. Learners can
     * only hold sets that were published once, so attempts at a set that never was are not taken
     * (they would return the correct answers of an unreleased mock in the result).
     */
    publishedAt: integer('published_at'),
    /** Revision of the set's `qs_detail` document: bumped when the set or one of its questions changes. */
    detailRev: integer('detail_rev').notNull().default(0),
    /** A draft is never published, whatever `pts` says (docs/authoring.md "Publishing and unpublishing": drafts can be previewed). */
    draft: integer('draft', { mode: 'boolean' }).notNull().default(false),
    /** Languages besides English the set is offered in (docs/glossary.md "Languages": hi and mr). */
    langs: json<string[]>('langs')
      .notNull()
      .default(sql`'[]'`),
    /** Title and instructions in other languages: { hi: { l, inst } } (docs/authoring.md). */
    trans: json<Partial<Record<string, { l: string; inst: string }>>>('trans')
      .notNull()
      .default(sql`'{}'`),
    /**
     * Version of the set's questions and marks: +1 when an editor changes them after learners
     * have taken the set (question_set_version keeps the earlier ones; results name theirs).
     */
    version: integer('version').notNull().default(1),
    createdBy: text('created_by').references(() => person.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
    ...replicated(),
  },
  (t) => [uniqueIndex('question_set_rev_idx').on(t.rev), index('question_set_detail_rev_idx').on(t.detailRev)],
);

/** Earlier versions of a set's questions and marks (docs/authoring.md "Publishing and unpublishing"), as results were scored against them. */
export const questionSetVersion = sqliteTable(
  'question_set_version',
  {
    setId: text('set_id')
      .notNull()
      .references(() => questionSet.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    /** The set as it was (setView), with `qv`: each question's version at that time. */
    data: json<Record<string, unknown>>('data').notNull(),
    actorId: text('actor_id').references(() => person.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.version] })],
);

/** A learner's attempt at a set (spec store `test_summary`); the id is chosen by the client. */
export const attempt = sqliteTable(
  'attempt',
  {
    id: text('id').primaryKey(),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    qsid: text('qsid')
      .notNull()
      .references(() => questionSet.id, { onDelete: 'cascade' }),
    /** Device start time (ms, device clock corrected by the server offset); `st` on the wire and in the column (docs/glossary.md). */
    startedAt: integer('st').notNull(),
    /** When the server first saw this attempt (ms, server clock). */
    serverFirstSeen: integer('server_first_seen').notNull(),
    lsq: text('lsq'),
    idx: integer('idx').notNull().default(0),
    selectedSection: text('selected_section'),
    answers: json<Record<string, { ua: unknown; status: string }>>('answers').notNull(),
    status: text('status').notNull().default('IN_PROGRESS'),
    submittedAt: integer('submitted_at'),
    /** Test time used (ms of the device's monotonic clock, summed over sessions); null when not sent. */
    elapsed: integer('elapsed'),
    /**
     * Receipt hash of the submission as it arrived (sync-protocol/src/receipt.ts, docs/exams.md "Answers and marking"):
     * set once, when the attempt becomes SUBMITTED; null before, and for attempts submitted
     * before receipts existed. Server only: the result carries it to the learner.
     */
    receipt: text('receipt'),
    updatedAt: integer('updated_at').notNull(),
    ...replicated(),
  },
  (t) => [
    index('attempt_person_idx').on(t.personId, t.rev),
    uniqueIndex('attempt_rev_idx').on(t.rev),
    index('attempt_qsid_idx').on(t.qsid, t.personId),
  ],
);

export const examResult = sqliteTable(
  'exam_result',
  {
    id: id(),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    qsid: text('qsid')
      .notNull()
      .references(() => questionSet.id, { onDelete: 'cascade' }),
    attemptId: text('attempt_id')
      .notNull()
      .unique()
      .references(() => attempt.id, { onDelete: 'cascade' }),
    /** Marks per section; the main part under `wos` (docs/glossary.md). */
    marks: json<Record<string, number>>('marks').notNull(),
    /** Most marks each part can give (its questions × its marks per question). */
    outOf: json<Record<string, number>>('out_of')
      .notNull()
      .default(sql`'{}'`),
    userRes: json<Record<string, Record<string, { ua: unknown; mg: number | null }>>>('user_res').notNull(),
    totalMarks: real('total_marks').notNull(),
    /** Most marks the whole set can give. */
    total: real('total').notNull().default(0),
    /** Submitted after the duration plus the grace window (results module, docs/exams.md). */
    late: integer('late', { mode: 'boolean' }).notNull().default(false),
    /**
     * Not the person's first submitted attempt at this set: shown as practice and never ranked
     * (docs/exams.md "Answers and marking": the rank of a mock test is decided by each learner's first attempt).
     */
    practice: integer('practice', { mode: 'boolean' }).notNull().default(false),
    /** The version of the set this result was scored against (question_set.version then). */
    setVersion: integer('set_version').notNull().default(1),
    /**
     * Each question's version when the result was scored: the result shows the questions as
     * they were then (question_version), not as an editor changed them later.
     */
    qv: json<Record<string, number>>('qv')
      .notNull()
      .default(sql`'{}'`),
    /** Answers awaiting an editor's evaluation (subjective questions). */
    pending: integer('pending').notNull().default(0),
    /**
     * Marks an editor may award per answered subjective question (its part's marks per question
     * at scoring time). Server only: evaluation checks against it.
     */
    maxOf: json<Record<string, number>>('max_of')
      .notNull()
      .default(sql`'{}'`),
    /** The attempt's submission time (ms, device clock corrected by the server offset). */
    submittedAt: integer('submitted_at').notNull().default(0),
    /** The attempt's test time used (ms, device monotonic clock), when the device sent it. */
    elapsed: integer('elapsed'),
    /** End time in epoch seconds (docs/glossary.md). */
    et: integer('et').notNull(),
    /** The scored attempt's receipt hash (attempt.receipt), for the learner's result. */
    receipt: text('receipt'),
    createdAt: createdAt(),
    ...replicated(),
  },
  (t) => [
    index('result_person_idx').on(t.personId, t.rev),
    uniqueIndex('result_rev_idx').on(t.rev),
    index('result_qsid_idx').on(t.qsid, t.personId),
  ],
);

/**
 * A set's score distribution over its ranked results (docs/live-tests.md "Provisional rank on the
 * device"), replicated as `score_dist`. Written by the distribution job, never per submission;
 * `deleted` once a published distribution has fewer ranked learners than the minimum again.
 */
export const scoreDist = sqliteTable(
  'score_dist',
  {
    qsid: text('qsid')
      .primaryKey()
      .references(() => questionSet.id, { onDelete: 'cascade' }),
    /** Learners counted. */
    n: integer('n').notNull(),
    /** Histogram of total marks: distinct marks ascending (`m`) and their counts (`c`). */
    t: json<{ m: number[]; c: number[] }>('t').notNull(),
    /** A histogram per section, by section name. */
    s: json<Record<string, { m: number[]; c: number[] }>>('s').notNull(),
    /** When it was built (ms). */
    at: integer('at').notNull(),
    ...replicated(),
  },
  (t) => [uniqueIndex('score_dist_rev_idx').on(t.rev)],
);

export const plan = sqliteTable('plan', {
  id: id(),
  code: text('code').notNull().unique(),
  name: json<{ en: string; hi: string }>('name').notNull(),
  total: integer('total').notNull(),
  approx: json<{ en: string; hi: string }>('approx').notNull(),
  contents: json<{ en: string; hi: string }[]>('contents').notNull(),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * A purchase order (docs/payments.md; ARCHITECTURE decision 10): a plan bought, or a donation of the
 * payer's amount. Its id is the merchantTransactionId / merchantOrderId / receipt the providers
 * see. Status CREATED → PENDING → PAID | FAILED | EXPIRED; a PAID order never goes back.
 */
export const purchaseOrder = sqliteTable(
  'purchase_order',
  {
    id: id(),
    personId: text('person_id').references(() => person.id, { onDelete: 'set null' }),
    planId: text('plan_id').references(() => plan.id, { onDelete: 'restrict' }),
    /** PLAN or DONATION (createDummyOrder). */
    kind: text('kind').notNull().default('PLAN'),
    /** The donation's reference (createDummyOrder's poid). */
    reference: text('reference'),
    /** Integer paise, from the plan's price on the server (never from the client). */
    amount: integer('amount').notNull(),
    status: text('status').notNull().default('CREATED'),
    /** phonepe | razorpay; null until a payment is started. */
    provider: text('provider'),
    /** The provider's own order id (PhonePe orderId, Razorpay order_…). */
    pgOrderId: text('pg_order_id'),
    /** A path of this site the confirmation page sends the buyer to afterwards. */
    redirectUrl: text('redirect_url').notNull().default('/'),
    expiresAt: integer('expires_at').notNull(),
    paidAt: integer('paid_at'),
    /** Sequential, given when the order is paid. */
    receiptNo: integer('receipt_no').unique(),
    /** The failed or expired order this one pays again (retryPayment). */
    retryOf: text('retry_of'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('order_person_idx').on(t.personId),
    index('order_created_idx').on(t.createdAt),
    index('order_status_idx').on(t.status, t.expiresAt),
    index('order_pg_idx').on(t.pgOrderId),
  ],
);

/** A provider transaction on an order (docs/payments.md). A second capture is flagged REFUND_DUE. */
export const payment = sqliteTable(
  'payment',
  {
    id: id(),
    /** Integer paise. */
    amount: integer('amount').notNull(),
    channel: text('channel').notNull(),
    /** The provider's transaction / payment id (unique: one row per capture). */
    transactionId: text('transaction_id').notNull().unique(),
    details: json<unknown>('details'),
    isCredit: integer('is_credit', { mode: 'boolean' }).notNull().default(true),
    orderId: text('order_id').references(() => purchaseOrder.id, { onDelete: 'set null' }),
    personId: text('person_id').references(() => person.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('PENDING'),
    provider: text('provider'),
    /** REFUND_DUE: captured for an order already paid (the terms' double debit). */
    flag: text('flag'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('payment_created_idx').on(t.createdAt), index('payment_order_idx').on(t.orderId)],
);

/**
 * The webhook inbox (docs/payments.md; modules/payments/webhook-inbox.ts). Each verified provider event
 * is stored with its unique id as it arrives (a repeated delivery finds its id and is answered
 * at once); `processedAt` is set in the same transaction as the state change the event causes,
 * so an event changes an order at most once, also after a crash between the two.
 */
export const paymentEvent = sqliteTable(
  'payment_event',
  {
    /** `<provider>:<event id>`. */
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    /** Our order, once the event has been matched to one (when processed). */
    orderId: text('order_id'),
    type: text('type').notNull(),
    payload: json<unknown>('payload'),
    /** Our order id as the event names it (merchantOrderId / receipt), to find the order. */
    merchantOrderId: text('merchant_order_id'),
    /** The provider's order id as the event names it. */
    pgOrderId: text('pg_order_id'),
    receivedAt: integer('received_at').notNull(),
    /** Null while waiting for the inbox worker. */
    processedAt: integer('processed_at'),
    /** Status checks tried for it; the worker backs off between them. */
    attempts: integer('attempts').notNull().default(0),
    /** Not before this time (ms) is it tried again. */
    nextAttemptAt: integer('next_attempt_at').notNull().default(0),
    /** Why the last try failed, or why it was given up. */
    lastError: text('last_error'),
  },
  (t) => [index('payment_event_waiting_idx').on(t.nextAttemptAt).where(sql`${t.processedAt} is null`)],
);

/** Append-only money ledger (ARCHITECTURE decision 10): the source of every total. Paise, signed. */
export const ledgerEntry = sqliteTable(
  'ledger_entry',
  {
    /** `<group id>:<leg>`: one row per leg of a movement (lib/ledger.ts). */
    id: id(),
    /** The movement this row is a leg of: the legs of a group sum to zero (docs/charity.md "The ledger"). */
    groupId: text('group_id').notNull(),
    /** `gateway`, `revenue:plans`, `campaign:<id>`, `trust:<id>:share`, … (docs/charity.md "The ledger"). */
    account: text('account').notNull(),
    orderId: text('order_id').notNull(),
    paymentId: text('payment_id'),
    /** What moved: CAPTURE (a plan paid), DONATION, SHARE_SPLIT, REFUND_DUE (a double debit), REFUND. */
    kind: text('kind').notNull(),
    /** Integer paise: a debit positive, a credit negative. */
    amount: integer('amount').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_created_idx').on(t.createdAt),
    index('ledger_order_idx').on(t.orderId),
    index('ledger_account_idx').on(t.account, t.createdAt),
    index('ledger_group_idx').on(t.groupId),
  ],
);

/** What a paid plan order grants (docs/payments.md "What a plan gives"), for its period. Limits null = unlimited. */
export const entitlement = sqliteTable(
  'entitlement',
  {
    id: id(),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    orderId: text('order_id').notNull().unique(),
    planCode: text('plan_code').notNull(),
    startsAt: integer('starts_at').notNull(),
    endsAt: integer('ends_at').notNull(),
    mockLimit: integer('mock_limit'),
    practiceLimit: integer('practice_limit'),
    createdAt: createdAt(),
  },
  (t) => [index('entitlement_person_idx').on(t.personId, t.endsAt)],
);

/** One attempt counted against a learner's allowance (the attempt's id: resuming counts nothing). */
export const entitlementUse = sqliteTable(
  'entitlement_use',
  {
    attemptId: text('attempt_id').primaryKey(),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    qsid: text('qsid').notNull(),
    /** mock | practice */
    kind: text('kind').notNull(),
    entitlementId: text('entitlement_id'),
    /** Arrived past the allowance: stored and scored, shown as over the limit. */
    overLimit: integer('over_limit', { mode: 'boolean' }).notNull().default(false),
    /** When the attempt started (ms, server-corrected). */
    startedAt: integer('started_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('entitlement_use_person_idx').on(t.personId, t.startedAt)],
);

/** The `entitlement` replication document's revision per learner (rebuilt from the rows above). */
export const entitlementState = sqliteTable('entitlement_state', {
  personId: text('person_id')
    .primaryKey()
    .references(() => person.id, { onDelete: 'cascade' }),
  rev: integer('rev').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

export const contactMessage = sqliteTable('contact_message', {
  id: id(),
  name: text('name').notNull(),
  email: text('email'),
  mobile: text('mobile').notNull(),
  description: text('description').notNull(),
  createdAt: createdAt(),
});

export const brand = sqliteTable('brand', {
  id: id(),
  name: text('name').notNull().unique(),
  description: text('description').notNull().default(''),
  logo: text('logo'),
  createdAt: createdAt(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * The public pages an admin edits (docs/admin.md: Static pages). `content` holds each language's
 * override, '' where that language has none (the page then shows its built-in text in it);
 * absent rows: no override in either language.
 */
export const staticPage = sqliteTable('static_page', {
  key: text('key').primaryKey(),
  content: json<{ en: string; hi: string }>('content').notNull(),
  updatedAt: integer('updated_at').notNull(),
  updatedBy: text('updated_by').references(() => person.id, { onDelete: 'set null' }),
});

/**
 * Every saved version of a static page, per language (docs/admin.md: Static pages): 1 for the
 * first save of that language, +1 with every save or restore. The newest is the page's text.
 */
export const staticPageVersion = sqliteTable(
  'static_page_version',
  {
    key: text('key').notNull(),
    lang: text('lang').notNull(),
    version: integer('version').notNull(),
    html: text('html').notNull(),
    /** SAVE or RESTORE. */
    action: text('action').notNull(),
    /** For RESTORE: the version whose text was restored. */
    restoredFrom: integer('restored_from'),
    actorId: text('actor_id').references(() => person.id, { onDelete: 'set null' }),
    /** The actor's name at the time, kept when the actor is later deleted. */
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.key, t.lang, t.version] })],
);

/** Home carousel slides (docs/admin.md). */
export const banner = sqliteTable('banner', {
  id: id(),
  src: text('src').notNull(),
  headline: json<{ en: string; hi: string }>('headline').notNull(),
  text: json<{ en: string; hi: string }>('text').notNull(),
  callToActionText: json<{ en: string; hi: string }>('call_to_action_text').notNull(),
  linkToAction: text('link_to_action').notNull(),
  type: text('type', { enum: ['external', 'internal'] }).notNull(),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: integer('updated_at').notNull(),
});

/** One-time codes: login OTPs and password-reset codes. Only a hash of the code is kept. */
export const oneTimeCode = sqliteTable(
  'one_time_code',
  {
    id: id(),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['OTP', 'RESET', 'EMAIL', 'MOBILE'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('otc_person_idx').on(t.personId, t.purpose)],
);

/** Messages sent (or to be sent) by the outbox adapter (ARCHITECTURE decision 9). */
export const outbox = sqliteTable(
  'outbox',
  {
    id: id(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('QUEUED'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: integer('sent_at'),
    /*
     * An SMS sent through a provider (docs/sms.md "Delivery reports and the e-mail fallback"): who
     * carried it, the provider's id of it, and what its delivery reports last said.
     */
    provider: text('provider'),
    providerMessageId: text('provider_message_id'),
    /** queued → sent → delivered, or failed; set by the provider's signed delivery reports. */
    deliveryState: text('delivery_state', { enum: ['queued', 'sent', 'delivered', 'failed'] }),
    deliveredAt: integer('delivered_at'),
    /**
     * The person the message is for, when it is one of ours (whose e-mail a fallback goes to). No
     * foreign key: the outbox is a log, and deleting a person must not have to touch it.
     */
    personId: text('person_id'),
    /** The template (docs/sms.md "DLT templates") and its language. */
    kind: text('kind'),
    lang: text('lang'),
    /**
     * The secret, encrypted (AES-256-GCM under a key derived from the JWT secret), for the e-mail
     * fallback only: wiped once the SMS is delivered, the fallback is sent, or the code expired.
     */
    pendingSecret: text('pending_secret'),
    /** When the e-mail fallback was sent (or found not possible): the job takes a row once. */
    fallbackAt: integer('fallback_at'),
  },
  (t) => [
    index('outbox_recipient_idx').on(t.recipient, t.createdAt),
    index('outbox_provider_message_idx').on(t.provider, t.providerMessageId),
    index('outbox_fallback_idx').on(t.createdAt).where(sql`${t.pendingSecret} is not null`),
  ],
);

/**
 * Inbound text messages seen (docs/sms.md "Inbound messages"): a provider delivers a message again
 * when our answer was slow or lost; the same provider message id is handed to the handlers once.
 */
export const smsInbound = sqliteTable(
  'sms_inbound',
  {
    provider: text('provider').notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    sender: text('sender').notNull(),
    receivedAt: integer('received_at').notNull(),
    /** Whether a handler took it (false: no handler knew its kind). */
    handled: integer('handled', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.provider, t.providerMessageId] })],
);

/**
 * A signed-in session (docs/security.md "Sessions and logout"): every token names one (`sid`). Logout revokes it; "log out
 * of all devices" revokes every session of the person. Tokens are checked against this row.
 */
export const session = sqliteTable(
  'session',
  {
    id: id(),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** Last time a token of this session was used or renewed (ms, server clock). */
    lastSeenAt: integer('last_seen_at').notNull(),
    /** Absolute end of the session (ms): no renewal goes past it. */
    expiresAt: integer('expires_at').notNull(),
    revokedAt: integer('revoked_at'),
    userAgent: text('user_agent'),
  },
  (t) => [index('session_person_idx').on(t.personId)],
);

/**
 * A device's Web Push subscription (docs/configuration.md "Push messages (Web Push)"; PATCH /generic/update-firebase-token, which keeps
 * the spec's path): the push service's `endpoint` and the device's keys, which the payload is
 * encrypted to (RFC 8291). One person may have several devices; an endpoint belongs to one row.
 * Bound to the session that registered it (docs/security.md "Sessions and logout"): logging that session out removes it, so
 * the next person on a shared phone gets their own messages and never the previous learner's.
 */
export const pushSubscription = sqliteTable(
  'push_subscription',
  {
    id: id(),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    sessionId: text('session_id')
      .notNull()
      .references(() => session.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull().unique(),
    /** The device's P-256 public key (65 bytes, base64url) and its 16-byte auth secret (base64url). */
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The app's language on the device when it subscribed (`en`, `hi`); null: unknown (both are sent). */
    lang: text('lang'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('push_subscription_person_idx').on(t.personId, t.updatedAt)],
);

/**
 * Messages sent at most once (`plan-ending:<entitlement id>`, …): the row is claimed with
 * INSERT … ON CONFLICT DO NOTHING before the message goes out, so two runs (or two instances)
 * never send it twice.
 */
export const pushOnce = sqliteTable('push_once', {
  key: text('key').primaryKey(),
  personId: text('person_id')
    .notNull()
    .references(() => person.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/** Rate-limit counters (lib/rate-limit.ts): one row per rule and key, spent by one conditional upsert, kept in the database so that instances share them. */
export const rateLimit = sqliteTable('rate_limit', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: integer('expire', { mode: 'timestamp_ms' }),
});


/**
 * A trust that runs campaigns and gives receipts (docs/charity.md): what a receipt names and the
 * share it keeps of each donation (basis points: 600 = 6 %; never above 1,000, the FAQ's 10 %).
 * `code` starts its receipt numbers (`<code>/<2026-27>/<n>`).
 */
export const trust = sqliteTable('trust', {
  id: id(),
  code: text('code').notNull().unique(),
  name: json<{ en: string; hi: string }>('name').notNull(),
  address: text('address').notNull(),
  registrationNo: text('registration_no').notNull(),
  pan: text('pan').notNull(),
  /** The income-tax 80G approval number printed on receipts. */
  approval80g: text('approval_80g').notNull(),
  /** Registered under the Foreign Contribution (Regulation) Act: only then may donors without an Indian passport give. */
  fcraRegistered: integer('fcra_registered', { mode: 'boolean' }).notNull().default(false),
  shareBps: integer('share_bps').notNull().default(600),
  /**
   * The most the trust keeps of a foreign contribution, basis points (0–2,000): the law caps the
   * administrative use of foreign contributions at 20 % (docs/charity.md "Foreign contributions").
   */
  fcShareCapBps: integer('fc_share_cap_bps').notNull().default(2000),
  createdAt: createdAt(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * A beneficiary's campaign (docs/charity.md "A campaign"). What it has raised is not kept here:
 * totals are sums over the ledger (modules/campaigns/campaign-totals.ts). Titles and stories are a
 * column per language, so that the public list searches titles with the engine's own LIKE.
 */
export const campaign = sqliteTable(
  'campaign',
  {
    id: id(),
    /** Whose campaign it is (its owner); null once that person's account is deleted (the campaign and its money stay). */
    beneficiaryId: text('beneficiary_id').references(() => person.id, { onDelete: 'set null' }),
    trustId: text('trust_id')
      .notNull()
      .references(() => trust.id, { onDelete: 'restrict' }),
    titleEn: text('title_en').notNull(),
    titleHi: text('title_hi').notNull().default(''),
    /** Sanitised rich text (lib/sanitize.ts), as a question's text. */
    storyEn: text('story_en').notNull(),
    storyHi: text('story_hi').notNull().default(''),
    cause: text('cause').notNull(),
    need: json<{ what: { en: string; hi: string }; from?: string; amount: number }[]>('need').notNull(),
    /** Paise: the sum of `need`, computed on every write. */
    goal: integer('goal').notNull(),
    endsAt: integer('ends_at').notNull(),
    status: text('status').notNull().default('DRAFT'),
    /** The last refusal's reason. */
    reason: text('reason'),
    createdBy: text('created_by').references(() => person.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
    /** When it was last submitted: the approval queue's order. */
    submittedAt: integer('submitted_at'),
    approvedAt: integer('approved_at'),
    approvedBy: text('approved_by').references(() => person.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('campaign_status_idx').on(t.status, t.approvedAt),
    index('campaign_beneficiary_idx').on(t.beneficiaryId),
    index('campaign_queue_idx').on(t.submittedAt).where(sql`${t.status} = 'SUBMITTED'`),
  ],
);

/** "What the money bought": posted by the owner or staff on an approved, paused or closed campaign. */
export const campaignUpdate = sqliteTable(
  'campaign_update',
  {
    id: id(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaign.id, { onDelete: 'cascade' }),
    authorId: text('author_id').references(() => person.id, { onDelete: 'set null' }),
    /** The author's name at the time, kept when the author is later deleted. */
    authorName: text('author_name'),
    textEn: text('text_en').notNull(),
    textHi: text('text_hi').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('campaign_update_campaign_idx').on(t.campaignId, t.createdAt)],
);

/**
 * An image uploaded to a campaign (the file itself is media storage's: DATA_DIR/media/<sha256>.<ext>,
 * stored once per content). `kind` CAMPAIGN: one of the campaign's own images, shown in
 * `position` order; UPDATE: for an update, `update_id` null until an update takes it.
 */
export const campaignImage = sqliteTable(
  'campaign_image',
  {
    id: id(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaign.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    updateId: text('update_id').references(() => campaignUpdate.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    url: text('url').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdBy: text('created_by').references(() => person.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('campaign_image_campaign_idx').on(t.campaignId, t.kind, t.position)],
);

/** A campaign's history (docs/charity.md): every move and edit, who, when, from and to which status, with its reason or note. */
export const campaignEvent = sqliteTable(
  'campaign_event',
  {
    id: id(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaign.id, { onDelete: 'cascade' }),
    /** create, edit, submit, approve, refuse, pause, resume, close */
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    note: text('note'),
    actorId: text('actor_id').references(() => person.id, { onDelete: 'set null' }),
    /** The actor's name at the time, kept when the actor is later deleted. */
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [index('campaign_event_campaign_idx').on(t.campaignId, t.createdAt)],
);

/**
 * A donation to a campaign (docs/charity.md "Donations"): its order (kind DONATION) carries the
 * amount and the payment's state; this row who gave, the split agreed before paying (the ledger
 * holds what moved), and the receipt's number once paid: `<trust code>/<financial year>/<n>`, n in
 * sequence per trust and financial year.
 */
export const donation = sqliteTable(
  'donation',
  {
    orderId: text('order_id')
      .primaryKey()
      .references(() => purchaseOrder.id, { onDelete: 'cascade' }),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaign.id, { onDelete: 'restrict' }),
    trustId: text('trust_id')
      .notNull()
      .references(() => trust.id, { onDelete: 'restrict' }),
    /** The signed-in donor; null for a guest. */
    personId: text('person_id').references(() => person.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    mobile: text('mobile').notNull(),
    /** For the tax receipt and Form 10BD, when given. */
    pan: text('pan'),
    address: text('address'),
    indianPassport: integer('indian_passport', { mode: 'boolean' }).notNull(),
    /** A foreign donor's country (ISO 3166-1 alpha-2), required without an Indian passport; null for the others. */
    country: text('country'),
    /** Shown as "Anonymous" on the campaign's page and public ledger. */
    anonymous: integer('anonymous', { mode: 'boolean' }).notNull().default(false),
    shareBps: integer('share_bps').notNull(),
    /** Paise: the trust's share and what reaches the campaign, as shown before paying. */
    share: integer('share').notNull(),
    toCampaign: integer('to_campaign').notNull(),
    financialYear: text('financial_year'),
    receiptSeq: integer('receipt_seq'),
    receiptNo: text('receipt_no').unique(),
    createdAt: createdAt(),
    paidAt: integer('paid_at'),
  },
  (t) => [
    index('donation_campaign_idx').on(t.campaignId, t.createdAt),
    index('donation_person_idx').on(t.personId),
    uniqueIndex('donation_receipt_seq_idx').on(t.trustId, t.financialYear, t.receiptSeq),
  ],
);

/**
 * A bank account or UPI id money is paid out to (docs/charity.md "Payout accounts"): a person's
 * own (`campaign_id` null) or, added by staff, a supplier payee of one campaign. Verified through
 * the payout adapter before it is used; the full account number is kept for the payouts and never
 * answered. Removing one keeps the row (`deleted_at`): withdrawals made to it still show it.
 */
export const payoutAccount = sqliteTable(
  'payout_account',
  {
    id: id(),
    /** Whose account it is; for a supplier payee, the staff member who added it. */
    personId: text('person_id').references(() => person.id, { onDelete: 'set null' }),
    /** A supplier payee's campaign; null for a person's own account. */
    campaignId: text('campaign_id').references(() => campaign.id, { onDelete: 'cascade' }),
    supplierName: text('supplier_name'),
    /** BANK or VPA. */
    kind: text('kind').notNull(),
    holderName: text('holder_name').notNull(),
    ifsc: text('ifsc'),
    accountNumber: text('account_number'),
    accountLast4: text('account_last4'),
    vpa: text('vpa'),
    /** PENDING (being verified), VERIFIED or FAILED. */
    status: text('status').notNull().default('PENDING'),
    /** The name the bank or UPI provider has for it. */
    verifiedName: text('verified_name'),
    nameMatches: integer('name_matches', { mode: 'boolean' }),
    /** The provider's contact and fund account (RazorpayX) that payouts go to. */
    contactId: text('contact_id'),
    fundAccountId: text('fund_account_id'),
    createdAt: createdAt(),
    verifiedAt: integer('verified_at'),
    deletedAt: integer('deleted_at'),
  },
  (t) => [index('payout_account_person_idx').on(t.personId, t.createdAt), index('payout_account_campaign_idx').on(t.campaignId)],
);

/**
 * A request to pay money out of a campaign (docs/charity.md "Withdrawals"): domestic money first,
 * then foreign. What it holds while open is what it asked for; the ledger moves when it is PAID.
 * `payout_key` is the idempotency key of its current payout (a new one for each retry).
 */
export const withdrawal = sqliteTable(
  'withdrawal',
  {
    id: id(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaign.id, { onDelete: 'restrict' }),
    requesterId: text('requester_id').references(() => person.id, { onDelete: 'set null' }),
    requesterName: text('requester_name').notNull(),
    payoutAccountId: text('payout_account_id')
      .notNull()
      .references(() => payoutAccount.id, { onDelete: 'restrict' }),
    amount: integer('amount').notNull(),
    fromDomestic: integer('from_domestic').notNull(),
    fromForeign: integer('from_foreign').notNull(),
    purposeEn: text('purpose_en').notNull(),
    purposeHi: text('purpose_hi').notNull().default(''),
    status: text('status').notNull().default('REQUESTED'),
    /** A rejection's reason. */
    reason: text('reason'),
    dueAt: integer('due_at').notNull(),
    /** Payouts started so far: the current payout's key is `<id>-<attempt>`. */
    attempt: integer('attempt').notNull().default(0),
    payoutKey: text('payout_key'),
    payoutId: text('payout_id'),
    utr: text('utr'),
    failure: text('failure'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
    paidAt: integer('paid_at'),
  },
  (t) => [
    index('withdrawal_campaign_idx').on(t.campaignId, t.createdAt),
    index('withdrawal_requester_idx').on(t.requesterId, t.createdAt),
    index('withdrawal_status_idx').on(t.status, t.dueAt),
    index('withdrawal_payout_idx').on(t.payoutId),
  ],
);

/** A trustee's approval of a withdrawal: two by two different people pay it; one each. */
export const withdrawalApproval = sqliteTable(
  'withdrawal_approval',
  {
    id: id(),
    withdrawalId: text('withdrawal_id')
      .notNull()
      .references(() => withdrawal.id, { onDelete: 'cascade' }),
    approverId: text('approver_id').notNull(),
    approverName: text('approver_name').notNull(),
    note: text('note'),
    /** The approver knew the account's registered name was not the payee's. */
    acceptedMismatch: integer('accepted_mismatch', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('withdrawal_approval_once_idx').on(t.withdrawalId, t.approverId)],
);

/** A withdrawal's history: every move, who (null: the payout provider), when, from and to, with its note. */
export const withdrawalEvent = sqliteTable(
  'withdrawal_event',
  {
    id: id(),
    withdrawalId: text('withdrawal_id')
      .notNull()
      .references(() => withdrawal.id, { onDelete: 'cascade' }),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    note: text('note'),
    actorId: text('actor_id'),
    actorName: text('actor_name'),
    createdAt: createdAt(),
  },
  (t) => [index('withdrawal_event_withdrawal_idx').on(t.withdrawalId, t.createdAt)],
);

/**
 * A grievance (docs/charity.md "Grievances"): raised by a signed-in person about a donation, a
 * campaign, a withdrawal, their account or anything else, or a public report of a campaign
 * (`report_reason` set; no raiser when a guest made it). `number` is `G<financial year>-<n>`, n
 * consecutive per financial year (`seq`); due one calendar month after it was raised (or reopened).
 */
export const grievance = sqliteTable(
  'grievance',
  {
    id: id(),
    number: text('number').notNull().unique(),
    financialYear: text('financial_year').notNull(),
    seq: integer('seq').notNull(),
    subject: text('subject').notNull(),
    /** The donation's order id, the campaign's, the withdrawal's or the person's; null for OTHER. */
    subjectId: text('subject_id'),
    title: text('title').notNull(),
    text: text('text').notNull(),
    /** A public report's reason (FRAUD, WRONG_INFO, OFFENSIVE, OTHER); null for a grievance. */
    reportReason: text('report_reason'),
    /** A report's way back to its reporter (an e-mail or a mobile), when given. */
    contact: text('contact'),
    raiserId: text('raiser_id').references(() => person.id, { onDelete: 'set null' }),
    raiserName: text('raiser_name'),
    ownerId: text('owner_id').references(() => person.id, { onDelete: 'set null' }),
    status: text('status').notNull().default('OPEN'),
    dueAt: integer('due_at').notNull(),
    resolutionNote: text('resolution_note'),
    resolvedAt: integer('resolved_at'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('grievance_seq_idx').on(t.financialYear, t.seq),
    index('grievance_queue_idx').on(t.status, t.dueAt),
    index('grievance_raiser_idx').on(t.raiserId, t.createdAt),
  ],
);

/** A message of a grievance's thread: the raiser's or staff's (`staff`), oldest first. */
export const grievanceMessage = sqliteTable(
  'grievance_message',
  {
    id: id(),
    grievanceId: text('grievance_id')
      .notNull()
      .references(() => grievance.id, { onDelete: 'cascade' }),
    authorId: text('author_id').references(() => person.id, { onDelete: 'set null' }),
    /** The author's name at the time, kept when the author is later deleted. */
    authorName: text('author_name'),
    staff: integer('staff', { mode: 'boolean' }).notNull(),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('grievance_message_idx').on(t.grievanceId, t.createdAt)],
);

/**
 * An answer code that came by SMS (docs/sms.md "Answers by SMS"), one per attempt: the first one
 * taken is the only one (the key makes a replay, or a second SMS of the attempt, change nothing).
 * `answers` are the answers it said (sync-protocol sms-answer-code DecodedAnswers), what a later
 * upload by data must equal. `stored`: the SMS itself stored the attempt (false when the data had
 * come first, or when its written answers follow by data). `completed_at`: the upload by data that
 * completed it arrived; `differed_at`: an upload whose answers differ arrived, was refused and is
 * flagged for staff.
 */
export const smsAnswer = sqliteTable(
  'sms_answer',
  {
    attemptId: text('attempt_id').primaryKey(),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    qsid: text('qsid').notNull(),
    receivedAt: integer('received_at').notNull(),
    provider: text('provider').notNull(),
    providerMessageId: text('provider_message_id').notNull(),
    answers: json<Record<string, { ua: unknown; status: string }>>('answers').notNull(),
    textsFollow: integer('texts_follow', { mode: 'boolean' }).notNull().default(false),
    stored: integer('stored', { mode: 'boolean' }).notNull().default(false),
    completedAt: integer('completed_at'),
    differedAt: integer('differed_at'),
  },
  (t) => [index('sms_answer_person_idx').on(t.personId, t.receivedAt)],
);

/**
 * A question set scheduled as a live test (docs/live-tests.md "Live tests"): its times, its
 * per-test key (server only until the start) and that key wrapped under the test's unlock code
 * (sync-protocol live-test.ts wrapLiveKey, sent with the paper). `rev` is bumped when the key is
 * released and when the results open (`released`, `resultsOpened`, set by the release job), so
 * that every registered learner's `live_key` document is pulled again.
 */
export const liveTest = sqliteTable(
  'live_test',
  {
    qsid: text('qsid')
      .primaryKey()
      .references(() => questionSet.id, { onDelete: 'cascade' }),
    startAt: integer('start_at').notNull(),
    /** The window to start in, ms from the start. */
    windowMs: integer('window_ms').notNull(),
    resultAt: integer('result_at').notNull(),
    /** The per-test AES-256 key, base64url. */
    key: text('key').notNull(),
    /** `key` sealed under the unlock code's key: JSON {iv, ct}. */
    wrapped: json<{ iv: string; ct: string }>('wrapped').notNull(),
    released: integer('released', { mode: 'boolean' }).notNull().default(false),
    resultsOpened: integer('results_opened', { mode: 'boolean' }).notNull().default(false),
    createdBy: text('created_by').references(() => person.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at').notNull(),
    rev: integer('rev').notNull(),
  },
  (t) => [index('live_test_start_idx').on(t.released, t.startAt), index('live_test_result_idx').on(t.resultsOpened, t.resultAt)],
);

/** A learner registered for a live test; `rev` of their `live_key` document together with the test's. */
export const liveRegistration = sqliteTable(
  'live_registration',
  {
    qsid: text('qsid')
      .notNull()
      .references(() => liveTest.qsid, { onDelete: 'cascade' }),
    personId: text('person_id')
      .notNull()
      .references(() => person.id, { onDelete: 'cascade' }),
    /** Send the unlock code by SMS at the start, in `lang`. */
    sms: integer('sms', { mode: 'boolean' }).notNull().default(false),
    lang: text('lang').notNull().default('en'),
    createdAt: createdAt(),
    rev: integer('rev').notNull(),
  },
  (t) => [primaryKey({ columns: [t.qsid, t.personId] }), index('live_registration_person_idx').on(t.personId, t.rev)],
);
