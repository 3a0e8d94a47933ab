import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import {
  accountsFixtureSchema,
  DEMO_MEMBER_PASSWORD,
  demoSalesFixtureSchema,
  permissionsFixtureSchema,
  plansFixtureSchema,
  questionSetsFixtureSchema,
  questionsFixtureSchema,
  rolesFixtureSchema,
  tagsFixtureSchema,
} from '../../../sync-protocol/src/fixtures';
import { hashPassword } from '../lib/passwords';
import { nextRev } from '../lib/revision';
import type { DB } from './client';
import { meta, payment, permission, person, personPermission, plan, purchaseOrder, question, questionSet, role, rolePermission, tag } from './schema';

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

/**
 * Seeds the demo data from fixtures/ once. The whole seed is one transaction and records itself
 * in `meta`, so a second start changes nothing and a crash half-way leaves no half seed.
 * Rows are inserted with ON CONFLICT DO NOTHING, so data an admin created earlier with the same
 * natural key (a permission name, a mobile) is kept as it is.
 */
export async function seedDatabase(db: DB, dir: string = FIXTURES_DIR): Promise<{ seeded: boolean }> {
  if (db.select().from(meta).where(eq(meta.key, SEED_KEY)).get()) return { seeded: false };

  const permissions = load(dir, 'permissions.json', permissionsFixtureSchema);
  const roles = load(dir, 'roles.json', rolesFixtureSchema);
  const accounts = load(dir, 'accounts.json', accountsFixtureSchema);
  const plans = load(dir, 'plans.json', plansFixtureSchema);
  const tags = load(dir, 'tags.json', tagsFixtureSchema);
  const questions = load(dir, 'questions.json', questionsFixtureSchema);
  const sets = load(dir, 'question-sets.json', questionSetsFixtureSchema);
  checkReferences(tags, questions, sets);
  const sales = load(dir, 'demo-sales.json', demoSalesFixtureSchema);

  // Hashing is slow and async; do it before the synchronous transaction.
  const hashes = await Promise.all(accounts.map((a) => hashPassword(a.password)));
  const memberHash = await hashPassword(DEMO_MEMBER_PASSWORD);

  db.transaction((tx) => {
    const now = Date.now();
    for (const p of permissions) tx.insert(permission).values(p).onConflictDoNothing().run();
    const permIdByName = new Map(tx.select().from(permission).all().map((p) => [p.permission, p.id]));

    for (const r of roles) {
      tx.insert(role).values({ name: r.name, description: r.description }).onConflictDoNothing().run();
      const roleRow = tx.select().from(role).where(eq(role.name, r.name)).get();
      if (!roleRow) continue;
      const names = r.permissions === '*' ? [...permIdByName.keys()] : r.permissions;
      for (const n of names) {
        const permissionId = permIdByName.get(n);
        if (!permissionId) throw new Error(`fixtures/roles.json: unknown permission ${n}`);
        tx.insert(rolePermission).values({ roleId: roleRow.id, permissionId }).onConflictDoNothing().run();
      }
    }

    accounts.forEach((a, i) => {
      const roleRow = tx.select().from(role).where(eq(role.name, a.r)).get();
      if (!roleRow) throw new Error(`fixtures/accounts.json: unknown role ${a.r}`);
      const inserted = tx
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
        })
        .onConflictDoNothing()
        .returning({ id: person.id })
        .get();
      if (!inserted) return;
      const rolePerms = tx.select().from(rolePermission).where(eq(rolePermission.roleId, roleRow.id)).all();
      for (const rp of rolePerms) {
        tx.insert(personPermission).values({ personId: a.id, permissionId: rp.permissionId }).onConflictDoNothing().run();
      }
    });

    for (const p of plans) {
      tx.insert(plan)
        .values({ code: p.code, name: p.name, total: p.total, approx: p.approx, contents: p.contents, active: p.active, sortOrder: p.order })
        .onConflictDoNothing()
        .run();
    }
    for (const t of tags) {
      tx.insert(tag).values({ tid: t.tid, key: t.key, tags: t.tags, uat: now, rev: nextRev(tx) }).onConflictDoNothing().run();
    }
    for (const q of questions) {
      tx.insert(question)
        .values({ ...q, s: q.s ?? null, createdBy: 'demo-editor', updatedAt: now, rev: nextRev(tx) })
        .onConflictDoNothing()
        .run();
    }
    for (const s of sets) {
      // Not published yet: the publish job (modules/sync/publish.ts) publishes sets whose time has come.
      tx.insert(questionSet)
        .values({ ...s, createdBy: 'demo-editor', updatedAt: now, rev: nextRev(tx), detailRev: nextRev(tx) })
        .onConflictDoNothing()
        .run();
    }
    seedSales(tx, sales, memberHash, now);
    tx.insert(meta).values({ key: SEED_KEY, value: new Date(now).toISOString() }).run();
  });
  return { seeded: true };
}

const DAY_MS = 86_400_000;

/** Demo signups and orders, dated relative to the first start (see demoSalesFixtureSchema). */
function seedSales(tx: Parameters<Parameters<DB['transaction']>[0]>[0], sales: z.output<typeof demoSalesFixtureSchema>, hash: string, now: number) {
  const member = tx.select().from(role).where(eq(role.name, 'MEMBER')).get();
  const memberPerms = member ? tx.select().from(rolePermission).where(eq(rolePermission.roleId, member.id)).all() : [];
  for (const s of sales.signups) {
    const at = now - s.daysAgo * DAY_MS - 3_600_000;
    const inserted = tx
      .insert(person)
      .values({ id: s.id, name: s.n, mobile: s.m, mobileVerified: true, roleId: member?.id ?? null, parentId: s.p, passwordHash: hash, createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .returning({ id: person.id })
      .get();
    if (!inserted) continue;
    for (const rp of memberPerms) tx.insert(personPermission).values({ personId: s.id, permissionId: rp.permissionId }).onConflictDoNothing().run();
  }
  const planByCode = new Map(tx.select().from(plan).all().map((p) => [p.code, p]));
  sales.orders.forEach((o, n) => {
    const p = planByCode.get(o.plan);
    if (!p) throw new Error(`fixtures/demo-sales.json: unknown plan ${o.plan}`);
    // The day `daysAgo` back, at `minute` past midnight of that UTC day, never in the future.
    const day = Math.floor((now - o.daysAgo * DAY_MS) / DAY_MS) * DAY_MS;
    const at = Math.min(now - 60_000, day + o.minute * 60_000);
    // A fixed id, so that a seed re-run (marker lost) adds nothing twice.
    const orderId = `demo-order-${n + 1}`;
    tx.insert(purchaseOrder)
      .values({ id: orderId, personId: o.person, planId: p.id, amount: p.total, status: o.status, createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .run();
    o.payments.forEach((pay, i) => {
      tx.insert(payment)
        .values({ ...pay, amount: p.total, orderId, personId: o.person, details: { demo: true }, createdAt: at + i * 3_600_000, updatedAt: at + i * 3_600_000 })
        .onConflictDoNothing()
        .run();
    });
  });
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
    const all = [...s.q, ...Object.values(s.sections).flatMap((sec) => [...sec.q, ...Object.values(sec.sub ?? {}).flatMap((x) => x.q)])];
    for (const id of all) if (!qids.has(id)) throw new Error(`fixtures/question-sets.json: ${s.id} names unknown question ${id}`);
  }
}
