/**
 * bench:cluster's database side, in a process of its own (opening PostgreSQL points the process's
 * tables at it): `prepare <file>` seeds the database that DATA_DIR / DATABASE_URL name, adds the
 * benchmark data (scripts/bench-data.ts: 50 published sets, 1,000 learners) and writes one
 * session token per learner to <file>; `count <ids-file>` prints how many attempts and scored
 * results the database holds for the attempt ids in the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { count, inArray } from 'drizzle-orm';
import { openConfigured } from '../server/src/db/client';
import { attempt, examResult } from '../server/src/db/schema';
import { seedDatabase } from '../server/src/db/seed';
import { first } from '../server/src/db/transaction';
import { loadConfig, parseEnv } from '../server/src/env';
import { createEventBus } from '../server/src/lib/events';
import { openSession } from '../server/src/lib/sessions';
import { publishDue } from '../server/src/modules/questions/publish';
import { growBenchData } from './bench-data';

export const LEARNERS = 1000;

const [mode, file] = process.argv.slice(2);
const config = loadConfig(parseEnv({ ...process.env, LOG_LEVEL: 'silent' }));
const database = await openConfigured(config);
try {
  if (mode === 'prepare') {
    await seedDatabase(database.db);
    await growBenchData(database.db, { learners: LEARNERS });
    await publishDue({ db: database.db, events: createEventBus() });
    const tokens: string[] = [];
    for (let p = 0; p < LEARNERS; p++) tokens.push((await openSession(database.db, config.jwtSecret, { id: `bench-person-${p}`, tokenVersion: 0 })).token);
    writeFileSync(file!, JSON.stringify(tokens));
  } else if (mode === 'count') {
    const ids = JSON.parse(readFileSync(file!, 'utf8')) as string[];
    const rows = await database.db.select({ id: attempt.id }).from(attempt).where(inArray(attempt.id, ids));
    const results = await first(database.db.select({ n: count() }).from(examResult).where(inArray(examResult.attemptId, ids)));
    console.log(JSON.stringify({ attempts: rows.length, distinct: new Set(rows.map((r) => r.id)).size, results: results?.n ?? 0 }));
  } else {
    throw new Error('usage: bench-cluster-data.ts prepare|count <file>');
  }
} finally {
  await database.close();
}
