import { readFileSync } from 'node:fs';
import { setQuestionIds } from '@pm/protocol/question-set';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, inArray, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  accountsFixtureSchema,
  DEMO_MEMBER_PASSWORD,
  demoCharityFixtureSchema,
  demoSalesFixtureSchema,
  permissionsFixtureSchema,
  plansFixtureSchema,
  questionSetsFixtureSchema,
  questionsFixtureSchema,
  rolesFixtureSchema,
  tagsFixtureSchema,
} from '@pm/protocol/fixtures';
import { goalOf } from '@pm/protocol/campaign';
import { addMonths, ORDER_TTL_MS, planRuleOf, rupeesToPaise } from '@pm/protocol/payment';
import { DEFAULT_TERMS_VERSION } from '../env';
import { hashPassword, verifyPassword } from '../lib/passwords';
import { sanitizeRichText } from '../lib/sanitize';
import { nextRev } from '../lib/revision';
import { indexQuestion } from '../modules/questions/question-index';
import type { DB, Tx } from './client';
import { takeTurns } from './dialect';
import { first, transaction } from './transaction';
import { ACCOUNTS, post as postMovement } from '../lib/ledger';
import { campaign, campaignEvent, entitlement, meta, payment, payoutAccount, permission, person, personPermission, plan, purchaseOrder, question, questionSet, role, rolePermission, tag, trust } from './schema';

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../fixtures');

function load<S extends z.ZodType>(dir: string, file: string, schema: S): z.output<S> {
  const raw: unknown = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    throw new Error(`fixtures/${file}: ${i?.path.join('.')}: ${i?.message}`);
  }
  return r.data;
}

const SEED_KEY = 'seeded_at';
/** What the seed put in: `demo` (everything in fixtures/) or `reference` (production). */
const SEED_KIND_KEY = 'seed_kind';

export type SeedOptions = {
  /**
   * true (the default, `npm start`): everything in fixtures/, demo accounts included. false (a
   * production start, docs/deployment.md "A real installation"): only the reference data a real installation needs and cannot
   * make through the API alone — permissions, roles with their permissions, the plans of docs/payments.md
   * and the tag taxonomy. No person (the first admin comes from `npm run create-admin`), no demo
   * questions, sets or sales, which a real installation's learners would take for real ones.
   */
  demo?: boolean;
  dir?: string;
};

/**
 * The demo passwords' argon2 hashes, made once per process: they are published (README), so one
 * salt per password loses nothing, and a process that seeds many databases (the test suites: a
 * database per test file) makes nine argon2 hashes once instead of per database.
 */
const demoHashes = new Map<string, Promise<string>>();
function demoHash(password: string): Promise<string> {
  let made = demoHashes.get(password);
  if (!made) {
    made = hashPassword(password);
    made.catch(() => demoHashes.delete(password));
    demoHashes.set(password, made);
  }
  return made;
}

/**
 * Seeds the data from fixtures/ once. The whole seed is one transaction and records itself in
 * `meta`, so a second start changes nothing and a crash half-way leaves no half seed; a database
 * seeded for production is never given the demo data by a later demo start. Instances that
 * start at once on one PostgreSQL database seed in turn (db/dialect.ts takeTurns), and each
 * looks for the record again once it is its turn: only the first seeds.
 * Rows are inserted with ON CONFLICT DO NOTHING, so data an admin created earlier with the same
 * natural key (a permission name, a mobile) is kept as it is.
 */
export async function seedDatabase(db: DB, opts: SeedOptions = {}): Promise<{ seeded: boolean }> {
  if (await first(db.select().from(meta).where(eq(meta.key, SEED_KEY)))) return { seeded: false };
  const demo = opts.demo ?? true;
  const dir = opts.dir ?? FIXTURES_DIR;

  const permissions = load(dir, 'permissions.json', permissionsFixtureSchema);
  const roles = load(dir, 'roles.json', rolesFixtureSchema);
  const plans = load(dir, 'plans.json', plansFixtureSchema);
  const tags = load(dir, 'tags.json', tagsFixtureSchema);
  /** In the seed's transaction: waits for a seed running elsewhere; true when the database is seeded (by now). */
  const seededMeanwhile = async (tx: Tx) => {
    await takeTurns(tx, SEED_KEY);
    return Boolean(await first(tx.select().from(meta).where(eq(meta.key, SEED_KEY))));
  };
  if (!demo) {
    const seeded = await transaction(db, async (tx) => {
      if (await seededMeanwhile(tx)) return false;
      await seedReference(tx, permissions, roles, plans, tags, Date.now());
      await tx.insert(meta).values({ key: SEED_KEY, value: new Date().toISOString() });
      await tx.insert(meta).values({ key: SEED_KIND_KEY, value: 'reference' }).onConflictDoNothing();
      return true;
    });
    return { seeded };
  }
  const accounts = load(dir, 'accounts.json', accountsFixtureSchema);
  const questions = load(dir, 'questions.json', questionsFixtureSchema);
  const sets = load(dir, 'question-sets.json', questionSetsFixtureSchema);
  checkReferences(tags, questions, sets);
  const sales = load(dir, 'demo-sales.json', demoSalesFixtureSchema);
  const charity = load(dir, 'demo-charity.json', demoCharityFixtureSchema);

  // Hashing is slow and not database work; it goes before the transaction (db/transaction.ts).
  const hashes = await Promise.all(accounts.map((a) => demoHash(a.password)));
  const memberHash = await demoHash(DEMO_MEMBER_PASSWORD);

  const seeded = await transaction(db, async (tx) => {
    if (await seededMeanwhile(tx)) return false;
    const now = Date.now();
    await seedReference(tx, permissions, roles, plans, tags, now);

    for (const [i, a] of accounts.entries()) {
      const roleRow = await first(tx.select().from(role).where(eq(role.name, a.r)));
      if (!roleRow) throw new Error(`fixtures/accounts.json: unknown role ${a.r}`);
      const inserted = await first(
        tx
        .insert(person)
        .values({
          id: a.id,
          name: a.n,
          mobile: a.m,
          mobileVerified: true,
          email: a.e,
          emailVerified: true,
          roleId: roleRow.id,
          parentId: a.p,
          passwordHash: hashes[i] ?? '',
          // The demo accounts have accepted the default terms (TERMS_VERSION, docs/configuration.md).
          termsVersion: DEFAULT_TERMS_VERSION,
          termsAcceptedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: person.id }),
      );
      if (!inserted) continue;
      const rolePerms = await tx.select().from(rolePermission).where(eq(rolePermission.roleId, roleRow.id));
      for (const rp of rolePerms) {
        await tx.insert(personPermission).values({ personId: a.id, permissionId: rp.permissionId }).onConflictDoNothing();
      }
    }

    // Written by the demo editor: each question with its tags, search text and version 1, as the
    // questions service records a question it creates.
    const author = (await first(tx.select({ id: person.id, name: person.name }).from(person).where(eq(person.id, 'demo-editor')))) ?? null;
    for (const q of questions) {
      const rev = await nextRev(tx);
      const row = await first(
        tx
          .insert(question)
          .values({ ...q, s: q.s ?? null, reason: q.reason ?? null, createdBy: author?.id ?? null, updatedBy: author?.id ?? null, updatedAt: now, rev })
          .onConflictDoNothing()
          .returning(),
      );
      if (row) await indexQuestion(tx, row, { action: 'CREATE', actor: author });
    }
    for (const s of sets) {
      // Not published yet: the publish job (modules/sync/publish.ts) publishes sets whose time has come.
      const rev = await nextRev(tx);
      const detailRev = await nextRev(tx);
      await tx
        .insert(questionSet)
        .values({ ...s, createdBy: 'demo-editor', updatedAt: now, rev, detailRev })
        .onConflictDoNothing();
    }
    await seedSales(tx, sales, memberHash, now);
    await seedCharity(tx, charity, now);
    await tx.insert(meta).values({ key: SEED_KEY, value: new Date(now).toISOString() });
    await tx.insert(meta).values({ key: SEED_KIND_KEY, value: 'demo' }).onConflictDoNothing();
    return true;
  });
  return { seeded };
}

/** Permissions, roles with their permissions, plans and tags: what every installation starts with. */
async function seedReference(
  tx: Tx,
  permissions: z.output<typeof permissionsFixtureSchema>,
  roles: z.output<typeof rolesFixtureSchema>,
  plans: z.output<typeof plansFixtureSchema>,
  tags: z.output<typeof tagsFixtureSchema>,
  now: number,
) {
  for (const p of permissions) await tx.insert(permission).values(p).onConflictDoNothing();
  const permIdByName = new Map((await tx.select().from(permission)).map((p) => [p.permission, p.id]));

  for (const r of roles) {
    await tx.insert(role).values({ name: r.name, description: r.description }).onConflictDoNothing();
    const roleRow = await first(tx.select().from(role).where(eq(role.name, r.name)));
    if (!roleRow) continue;
    const names = r.permissions === '*' ? [...permIdByName.keys()] : r.permissions;
    for (const n of names) {
      const permissionId = permIdByName.get(n);
      if (!permissionId) throw new Error(`fixtures/roles.json: unknown permission ${n}`);
      await tx.insert(rolePermission).values({ roleId: roleRow.id, permissionId }).onConflictDoNothing();
    }
  }
  for (const p of plans) {
    await tx
      .insert(plan)
      .values({ code: p.code, name: p.name, total: p.total, approx: p.approx, contents: p.contents, active: p.active, sortOrder: p.order })
      .onConflictDoNothing();
  }
  for (const t of tags) {
    await tx.insert(tag).values({ tid: t.tid, key: t.key, tags: t.tags, uat: now, rev: await nextRev(tx) }).onConflictDoNothing();
  }
}

/** A person who can still sign in with a password published in fixtures/ (and the README). */
export type DemoLogin = { id: string; name: string; mobile: string };

/**
 * The people who can still sign in with a demo password (docs/security.md "Production, load shedding, logs, files": a production start refuses to
 * run while there is one). Checked with argon2 like a login, against every demo password:
 *
 * - the demo accounts and demo members of fixtures/, found by id, mobile or e-mail (also when
 *   they were re-created by hand);
 * - everyone who holds a permission (staff): a demo password there opens the back office.
 *
 * Not every learner: that would cost an argon2 verification per person and password at every
 * start (~25 ms each), and a learner's weak password opens only that learner's account, which
 * the password policy (lib/password-policy.ts) keeps from being set. A few dozen checks, run in
 * parallel on libuv's threads, keep a production start well under a second.
 */
export async function findDemoLogins(db: DB, dir: string = FIXTURES_DIR): Promise<DemoLogin[]> {
  const accounts = load(dir, 'accounts.json', accountsFixtureSchema);
  const sales = load(dir, 'demo-sales.json', demoSalesFixtureSchema);
  const passwords = [...new Set([...accounts.map((a) => a.password), DEMO_MEMBER_PASSWORD])];
  const ids = [...accounts.map((a) => a.id), ...sales.signups.map((s) => s.id)];
  const mobiles = [...accounts.map((a) => a.m), ...sales.signups.map((s) => s.m)];
  const emails = accounts.map((a) => a.e);
  const candidates = await db
    .select({ id: person.id, name: person.name, mobile: person.mobile, passwordHash: person.passwordHash })
    .from(person)
    .where(
      or(
        inArray(person.id, ids),
        inArray(person.mobile, mobiles),
        inArray(person.email, emails),
        inArray(person.id, db.selectDistinct({ id: personPermission.personId }).from(personPermission)),
      ),
    );
  const found = await Promise.all(
    candidates.map(async (c) => {
      for (const p of passwords) if (await verifyPassword(c.passwordHash, p)) return { id: c.id, name: c.name, mobile: c.mobile };
      return null;
    }),
  );
  return found.filter((f): f is DemoLogin => f !== null);
}

const DAY_MS = 86_400_000;

/** Demo signups and orders, dated relative to the first start (see demoSalesFixtureSchema). */
async function seedSales(tx: Tx, sales: z.output<typeof demoSalesFixtureSchema>, hash: string, now: number) {
  const member = await first(tx.select().from(role).where(eq(role.name, 'MEMBER')));
  const memberPerms = member ? await tx.select().from(rolePermission).where(eq(rolePermission.roleId, member.id)) : [];
  for (const s of sales.signups) {
    const at = now - s.daysAgo * DAY_MS - 3_600_000;
    const inserted = await first(
      tx
        .insert(person)
        .values({
          id: s.id,
          name: s.n,
          mobile: s.m,
          mobileVerified: true,
          roleId: member?.id ?? null,
          parentId: s.p,
          passwordHash: hash,
          // Signed up, so they accepted the terms then (docs/security.md "Accounts").
          termsVersion: DEFAULT_TERMS_VERSION,
          termsAcceptedAt: at,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing()
        .returning({ id: person.id }),
    );
    if (!inserted) continue;
    for (const rp of memberPerms) await tx.insert(personPermission).values({ personId: s.id, permissionId: rp.permissionId }).onConflictDoNothing();
  }
  const planByCode = new Map((await tx.select().from(plan)).map((p) => [p.code, p]));
  let receipts = (await first(tx.select({ n: sql<number>`coalesce(max(${purchaseOrder.receiptNo}), 0)` }).from(purchaseOrder)))?.n ?? 0;
  for (const [n, o] of sales.orders.entries()) {
    const p = planByCode.get(o.plan);
    if (!p) throw new Error(`fixtures/demo-sales.json: unknown plan ${o.plan}`);
    // The day `daysAgo` back, at `minute` past midnight of that UTC day, never in the future.
    const day = Math.floor((now - o.daysAgo * DAY_MS) / DAY_MS) * DAY_MS;
    const at = Math.min(now - 60_000, day + o.minute * 60_000);
    // A fixed id, so that a seed re-run (marker lost) adds nothing twice.
    const orderId = `demo-order-${n + 1}`;
    const paise = rupeesToPaise(p.total);
    const paid = o.status === 'PAID';
    const inserted = await first(
      tx
      .insert(purchaseOrder)
      .values({
        id: orderId,
        personId: o.person,
        planId: p.id,
        amount: paise,
        status: o.status,
        provider: 'phonepe',
        expiresAt: at + ORDER_TTL_MS,
        paidAt: paid ? at : null,
        // Receipts are numbered in the order they were paid; the demo's come first.
        receiptNo: paid ? (receipts += 1) : null,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing()
      .returning({ id: purchaseOrder.id }),
    );
    if (!inserted) continue;
    for (const [i, pay] of o.payments.entries()) {
      const paymentId = `${orderId}-payment-${i + 1}`;
      const when = at + i * 3_600_000;
      await tx
        .insert(payment)
        .values({ ...pay, id: paymentId, amount: paise, orderId, personId: o.person, provider: 'phonepe', details: { demo: true }, createdAt: when, updatedAt: when })
        .onConflictDoNothing();
      // Money in is a CAPTURE, a refund (a debit payment) a REFUND, each a movement between the
      // gateway and the plans' revenue: the reports sum the gateway's side (docs/charity.md "The ledger").
      if (pay.status === 'SUCCESS') {
        const amount = pay.isCredit ? paise : -paise;
        await postMovement(tx, {
          groupId: `ledger-${paymentId}`,
          kind: pay.isCredit ? 'CAPTURE' : 'REFUND',
          orderId,
          paymentId,
          legs: [
            { account: ACCOUNTS.gateway, amount },
            { account: ACCOUNTS.plans, amount: -amount },
          ],
          at: when,
        });
      }
    }
    if (paid && p.code) {
      const rule = planRuleOf(p.code);
      const ends = addMonths(at, rule.months);
      if (o.person) await tx.insert(entitlement).values({ personId: o.person, orderId, planCode: p.code, startsAt: at, endsAt: ends, mockLimit: rule.mock, practiceLimit: rule.practice, createdAt: at }).onConflictDoNothing();
    }
  }
}

/**
 * The demo's trust and its approved campaigns (docs/charity.md), each with the history an approval
 * through the API leaves: created, submitted a day later, approved the day after. Fixed ids, so
 * that a seed re-run (marker lost) adds nothing twice.
 */
async function seedCharity(tx: Tx, charity: z.output<typeof demoCharityFixtureSchema>, now: number) {
  for (const t of charity.trusts) await tx.insert(trust).values({ ...t, createdAt: now, updatedAt: now }).onConflictDoNothing();
  // Verified as the sandbox would verify them: the registered name is the holder's own.
  for (const a of charity.payoutAccounts) {
    await tx
      .insert(payoutAccount)
      .values({ id: a.id, personId: a.person, kind: 'VPA', holderName: a.holderName, vpa: a.vpa, status: 'VERIFIED', verifiedName: a.holderName, nameMatches: true, createdAt: now, verifiedAt: now })
      .onConflictDoNothing();
  }
  for (const c of charity.campaigns) {
    const created = now - 3 * DAY_MS;
    const submitted = created + DAY_MS;
    const approved = submitted + DAY_MS;
    const names = new Map((await tx.select({ id: person.id, name: person.name }).from(person).where(inArray(person.id, [c.beneficiary, c.approvedBy]))).map((p) => [p.id, p.name]));
    const inserted = await first(
      tx
        .insert(campaign)
        .values({
          id: c.id,
          beneficiaryId: c.beneficiary,
          trustId: c.trust,
          titleEn: c.title.en,
          titleHi: c.title.hi,
          storyEn: sanitizeRichText(c.story.en),
          storyHi: sanitizeRichText(c.story.hi),
          cause: c.cause,
          need: c.need,
          goal: goalOf(c.need),
          endsAt: now + c.endsInDays * DAY_MS,
          status: 'APPROVED',
          createdBy: c.beneficiary,
          createdAt: created,
          updatedAt: approved,
          submittedAt: submitted,
          approvedAt: approved,
          approvedBy: c.approvedBy,
        })
        .onConflictDoNothing()
        .returning({ id: campaign.id }),
    );
    if (!inserted) continue;
    const steps = [
      { action: 'create', fromStatus: null, toStatus: 'DRAFT', actorId: c.beneficiary, createdAt: created },
      { action: 'submit', fromStatus: 'DRAFT', toStatus: 'SUBMITTED', actorId: c.beneficiary, createdAt: submitted },
      { action: 'approve', fromStatus: 'SUBMITTED', toStatus: 'APPROVED', actorId: c.approvedBy, createdAt: approved },
    ];
    for (const [i, step] of steps.entries()) {
      await tx
        .insert(campaignEvent)
        .values({ ...step, id: `${c.id}-event-${i + 1}`, campaignId: c.id, actorName: names.get(step.actorId) ?? null, note: null })
        .onConflictDoNothing();
    }
  }
}

function checkReferences(
  tags: z.output<typeof tagsFixtureSchema>,
  questions: z.output<typeof questionsFixtureSchema>,
  sets: z.output<typeof questionSetsFixtureSchema>,
) {
  const tids = new Set(tags.map((t) => t.tid));
  for (const q of questions) {
    for (const t of [...q.c, ...q.t, ...q.e, ...(q.s ? [q.s] : [])]) {
      if (!tids.has(t)) throw new Error(`fixtures/questions.json: ${q.id} names unknown tag ${t}`);
    }
  }
  const qids = new Set(questions.map((q) => q.id));
  for (const s of sets) {
    for (const id of setQuestionIds(s)) if (!qids.has(id)) throw new Error(`fixtures/question-sets.json: ${s.id} names unknown question ${id}`);
  }
}
