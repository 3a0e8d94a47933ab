import { eq } from 'drizzle-orm';
import { BUNDLE_EXT, BUNDLE_TTL_MS, BUNDLE_VERSION, type BundlePayload, sealBundle } from '@pm/protocol/bundle';
import { MSG } from '@pm/protocol/messages';
import type { QsDetailDoc, TestQuestion } from '@pm/protocol/sync/qs-detail';
import type { Deps, Principal } from '../../context';
import { questionSet } from '../../db/schema';
import { first } from '../../db/transaction';
import { notFound, paymentRequired } from '../../lib/errors';
import { downloadAccess } from '../entitlements/entitlements.service';
import { readImage } from '../media/media.service';
import { isVisibleSet } from '../questions/question-access';
import { qsDetailDocs, questionSetDocs } from '../sync/sync.docs';
import type { BundleKeys } from './bundle-key';

/** Our images' addresses in rich text (sync-protocol MEDIA_URL, unanchored). */
const MEDIA_IN_HTML = /\/media\/[0-9a-f]{64}\.(?:png|jpg|webp)/g;

/**
 * A question without its correct answers and explanation, in every language: a bundle may reach
 * anyone, a guest included, so it carries no more than a guest's replica would
 * (docs/live-tests.md "What a bundle holds"), whatever the set.
 */
function withoutAnswers(q: TestQuestion): TestQuestion {
  const { ca: _ca, expl: _expl, trans, ...rest } = q;
  return { ...rest, trans: Object.fromEntries(Object.entries(trans).map(([lang, tr]) => [lang, { q: tr.q, ops: tr.ops }])) };
}

/** Every image address the questions show, each once. */
function mediaOf(detail: QsDetailDoc): string[] {
  const urls = new Set<string>();
  const scan = (html: string) => {
    for (const m of html.matchAll(MEDIA_IN_HTML)) urls.add(m[0]);
  };
  for (const q of detail.questions) {
    scan(q.q);
    Object.values(q.ops).forEach(scan);
    for (const tr of Object.values(q.trans)) {
      scan(tr.q);
      Object.values(tr.ops).forEach(scan);
    }
  }
  return [...urls];
}

/** The images inline, base64 (already compressed formats: gzip would not shrink them). An image gone from the disk is left out. */
async function inlineMedia(deps: Pick<Deps, 'config'>, detail: QsDetailDoc): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const url of mediaOf(detail)) {
    const file = await readImage(deps, url);
    if (file) out[url] = Buffer.from(file.bytes).toString('base64');
  }
  return out;
}

/**
 * GET /api/bundle/v1/sets/{id} (docs/live-tests.md "A test handed from phone to phone"): a signed
 * bundle of a set the caller may take now: published, and free or within a plan that lets them
 * download it (the same rule as the qs_detail pull, docs/payments.md "Without a plan").
 */
export async function exportBundle(deps: Deps, me: Principal, id: string, keys: BundleKeys): Promise<{ name: string; bytes: Uint8Array }> {
  const row = await first(deps.db.select().from(questionSet).where(eq(questionSet.id, id)));
  if (!row || !isVisibleSet(row)) throw notFound(MSG.questionSetNotFound);
  if (!row.free && !(await downloadAccess(deps.db, me.id)).includes(row.isM ? 'm' : 'p')) throw paymentRequired();
  const [[set], [detail]] = await Promise.all([questionSetDocs(deps.db, [row]), qsDetailDocs(deps.db, [row])]);
  const stripped = { ...detail!, questions: detail!.questions.map(withoutAnswers) };
  const now = Date.now();
  const payload: BundlePayload = { v: BUNDLE_VERSION, iat: now, exp: now + BUNDLE_TTL_MS, set: set!, detail: stripped, media: await inlineMedia(deps, stripped) };
  const bytes = await sealBundle(payload, keys.signer);
  return { name: `${row.id.replace(/[^A-Za-z0-9_-]+/g, '-')}.${BUNDLE_EXT}`, bytes };
}
