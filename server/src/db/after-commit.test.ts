import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Harness, startHarness } from '../test/harness';
import { meta } from './schema';
import { afterCommit, first, transaction } from './transaction';

/* db/transaction.ts afterCommit, on the engine the suite runs on. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seed: false });
});
afterAll(() => h.destroy());

const valueOf = async (key: string) => (await first(h.deps.db.select().from(meta).where(eq(meta.key, key))))?.value;

test('a callback runs once the transaction has committed, and sees what it wrote', async () => {
  const seen: (string | undefined)[] = [];
  let ran!: Promise<void>;
  await transaction(h.deps.db, async (tx) => {
    await tx.insert(meta).values({ key: 'after-commit-1', value: 'x' });
    afterCommit(tx, () => {
      ran = valueOf('after-commit-1').then((v) => void seen.push(v));
    });
    expect(ran).toBeUndefined();
  });
  await ran;
  expect(seen).toEqual(['x']);
});

test('a transaction that rolls back runs none; a savepoint that rolls back drops only its own', async () => {
  const ran: string[] = [];
  await expect(
    transaction(h.deps.db, async (tx) => {
      afterCommit(tx, () => ran.push('rolled back'));
      throw new Error('no');
    }),
  ).rejects.toThrow('no');
  await transaction(h.deps.db, async (tx) => {
    afterCommit(tx, () => ran.push('outer'));
    await transaction(tx, async (sp) => {
      afterCommit(sp, () => ran.push('released savepoint'));
    });
    await transaction(tx, async (sp) => {
      afterCommit(sp, () => ran.push('savepoint rolled back'));
      throw new Error('inner');
    }).catch(() => undefined);
    expect(ran).toEqual([]);
  });
  expect(ran).toEqual(['outer', 'released savepoint']);
});

test('outside a transaction it runs at once', () => {
  let ran = false;
  afterCommit(h.deps.db, () => (ran = true));
  expect(ran).toBe(true);
});
