import type { QsDetailDoc } from '@pm/protocol/sync/qs-detail';
import { cachedMedia, mediaUrlsOf } from '../../lib/media-precache';
import { preflight, probeRoom, storageNeed, type StorageVerdict } from '../../lib/storage-preflight';
import type { ReplicaDatabase } from '../core/database';
import { setStorageVerdict } from './storage-status';

/**
 * The storage pre-flight over the whole replica (docs/exams.md "Two tabs, storage and eviction"): what the learner's sets still
 * need on this device — the questions of sets whose questions are not here yet (by their
 * count), the images of stored sets that are not in the media cache, the fonts, room for
 * answers — against the browser's estimate; the verdict goes to the storage status that the
 * exam list and the test's intro show.
 */
export async function assessStorage(db: ReplicaDatabase): Promise<StorageVerdict> {
  const [sets, details] = await Promise.all([db.question_set.find().exec(), db.qs_detail.find().exec()]);
  const stored = new Map(details.map((d) => [d.id, d]));
  let questionsMissing = 0;
  const urls = new Set<string>();
  for (const set of sets) {
    const detail = stored.get(set.id);
    if (!detail) questionsMissing += set.count;
    else for (const url of mediaUrlsOf(detail.toJSON() as QsDetailDoc)) urls.add(url);
  }
  const cached = await cachedMedia([...urls]);
  const imagesMissing = urls.size - cached.size;
  // Tried for real only while something is still to come down (a probe writes its size).
  const due = questionsMissing > 0 || imagesMissing > 0;
  const verdict = await preflight(storageNeed({ questionsMissing, imagesMissing }).total, due ? { probe: probeRoom } : {});
  setStorageVerdict(verdict);
  return verdict;
}

/** Before `count` images are downloaded: is there room? (The verdict is published too.) */
export async function roomForImages(count: number): Promise<boolean> {
  const verdict = await preflight(storageNeed({ questionsMissing: 0, imagesMissing: count }).total, { probe: probeRoom });
  setStorageVerdict(verdict);
  return !verdict.short;
}
