import { map, type Observable } from 'rxjs';
import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import type { QuestionSetDoc } from '@pm/protocol/sync/question-set';
import type { ReplicaDatabase } from '../core/database';

/*
 * Tests handed from phone to phone (docs/live-tests.md "On the receiving phone"): a set imported
 * from a bundle is kept in a local document of the replica, never in question_set or qs_detail.
 * Those collections are pulled from the server only, and RxDB never overwrites a document the
 * device wrote itself in a collection it does not push: a set written there would no longer
 * follow the server (an editor's correction, a withdrawal). Apart, the replica's own copy wins
 * as soon as it arrives, and the shared copy is read only while the replica has none.
 */

const SHARED_SETS_KEY = 'shared-sets';

/** A set as a bundle brought it: the set, its questions (no answers), when the bundle expires and when it was opened here. */
export type SharedSet = { set: QuestionSetDoc; detail: QsDetailDoc; exp: number; at: number };
type Stored = { sets: Record<string, SharedSet> };

/** Every shared set on this device, by id, live. */
export function sharedSets$(db: ReplicaDatabase): Observable<Record<string, SharedSet>> {
  return db.getLocal$<Stored>(SHARED_SETS_KEY).pipe(map((doc) => (doc?.get('sets') as Stored['sets'] | undefined) ?? {}));
}

/** One shared set, live (null when none). */
export function sharedSet$(db: ReplicaDatabase, id: string): Observable<SharedSet | null> {
  return sharedSets$(db).pipe(map((sets) => sets[id] ?? null));
}

/** Keeps a shared set (a newer bundle of the same set replaces the one before). */
export async function keepSharedSet(db: ReplicaDatabase, shared: SharedSet): Promise<void> {
  const doc = await db.getLocal<Stored>(SHARED_SETS_KEY);
  const sets = { ...((doc?.get('sets') as Stored['sets'] | undefined) ?? {}), [shared.set.id]: shared };
  await db.upsertLocal<Stored>(SHARED_SETS_KEY, { sets });
}
