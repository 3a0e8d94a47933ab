import { and, count, eq, inArray, isNull, max } from 'drizzle-orm';
import { CAMPAIGN_IMAGE_MAX_BYTES, CAMPAIGN_MAX_IMAGES, type CampaignStatus } from '@pm/protocol/campaign';
import type { MediaExt } from '@pm/protocol/media';
import { MSG } from '@pm/protocol/messages';
import type { z } from 'zod';
import type { campaignUpdatePostSchema } from '@pm/protocol/campaign';
import type { Deps, Principal } from '../../context';
import type { Conn } from '../../db/client';
import { lockRows } from '../../db/dialect';
import { campaign, campaignImage, campaignUpdate } from '../../db/schema';
import { first, transaction } from '../../db/transaction';
import { logActivity } from '../../lib/activity';
import { AppError, badRequest } from '../../lib/errors';
import { checkImage } from '../media/image-format';
import { unsupportedImage, writeMediaFile } from '../media/media.service';
import { manageableCampaign } from './campaign-access';
import { cleanStory } from './campaigns.service';
import { editable, takesUpdates } from './campaigns.machine';

/*
 * A campaign's images and its updates (docs/charity.md "A campaign"). An image is uploaded to a
 * campaign as raw bytes and stored by media storage (one file per content, served under /media/).
 * While the campaign can be edited (DRAFT, REFUSED) the image becomes one of its own, at most
 * CAMPAIGN_MAX_IMAGES; once it has been approved (APPROVED, PAUSED, CLOSED) it waits for an
 * update to name it, at most CAMPAIGN_MAX_IMAGES waiting. A submitted campaign takes none: the
 * trustees decide on what they read.
 */

/** The spec's message, 413, for a body over 5 MB (the route reads no further). */
export const campaignImageTooLarge = () => new AppError('PAYLOAD_TOO_LARGE', MSG.campaignImageRules);

/**
 * The image's type by its bytes (media's image-format.ts: the signature, then the whole file's
 * structure), never by a name or a Content-Type: a PNG named .jpg is a PNG; a GIF, a WebP or a
 * text file named .png is refused (415) with the spec's message; a damaged PNG or JPEG with its own.
 */
export function campaignImageType(bytes: Uint8Array): { ext: MediaExt; width: number; height: number } {
  if (bytes.byteLength > CAMPAIGN_IMAGE_MAX_BYTES) throw campaignImageTooLarge();
  const found = checkImage(bytes);
  if (!found.ok) {
    if (found.reason === 'pixels') throw new AppError('PAYLOAD_TOO_LARGE', MSG.imageTooManyPixels);
    throw unsupportedImage(found.reason === 'broken' ? MSG.campaignImageBroken : MSG.campaignImageRules);
  }
  if (found.ext !== 'png' && found.ext !== 'jpg') throw unsupportedImage(MSG.campaignImageRules);
  return found;
}

type ImageKind = 'CAMPAIGN' | 'UPDATE';

/** What an image uploaded now is for, by the campaign's status; null: it takes none now. */
function kindFor(status: CampaignStatus): ImageKind | null {
  if (editable(status)) return 'CAMPAIGN';
  if (takesUpdates(status)) return 'UPDATE';
  return null;
}

/** The room left for one more image of `kind`, counted with the campaign's row locked (two uploads at once cannot both take the tenth place). */
async function nextPosition(tx: Conn, campaignId: string, kind: ImageKind): Promise<number> {
  const mine = and(eq(campaignImage.campaignId, campaignId), eq(campaignImage.kind, kind), kind === 'UPDATE' ? isNull(campaignImage.updateId) : undefined);
  const n = (await first(tx.select({ n: count(), top: max(campaignImage.position) }).from(campaignImage).where(mine))) ?? { n: 0, top: null };
  if (n.n >= CAMPAIGN_MAX_IMAGES) throw new AppError('CONFLICT', kind === 'CAMPAIGN' ? MSG.campaignTooManyImages : MSG.campaignUpdateTooManyImages);
  return n.top === null ? 0 : Number(n.top) + 1;
}

/** POST /api/campaign/:id/images: one image (the route has read at most 5 MB of body). */
export async function addCampaignImage(deps: Deps, p: Principal, id: string, bytes: Uint8Array) {
  const before = await manageableCampaign(deps.db, p, id);
  if (!kindFor(before.status as CampaignStatus)) throw new AppError('CONFLICT', MSG.campaignImageNotNow, { status: before.status });
  const image = campaignImageType(bytes);
  // The file first (not database work: never inside a transaction); a refusal below leaves an
  // unreferenced file, which costs disk only (its name is its content's hash).
  const { url } = await writeMediaFile(deps, bytes, image.ext);
  const row = await transaction(deps.db, async (tx) => {
    await lockRows(tx, campaign, eq(campaign.id, id));
    const current = await manageableCampaign(tx, p, id);
    const kind = kindFor(current.status as CampaignStatus);
    if (!kind) throw new AppError('CONFLICT', MSG.campaignImageNotNow, { status: current.status });
    const position = await nextPosition(tx, id, kind);
    const stored = (await first(
      tx
        .insert(campaignImage)
        .values({ campaignId: id, kind, position, url, bytes: bytes.byteLength, width: image.width, height: image.height, createdBy: p.id })
        .returning(),
    ))!;
    await logActivity(tx, { actor: { id: p.id, name: p.name }, action: 'CREATE', entity: 'campaign_image', entityId: stored.id, newValue: { campaignId: id, kind, url, bytes: bytes.byteLength } });
    return stored;
  });
  return { success: true as const, id: row.id, url: row.url, kind: row.kind as ImageKind };
}

/**
 * POST /api/campaign/:id/updates: what the money bought, by the owner or staff, on a campaign
 * that has been approved. Its images are ones uploaded to the campaign for an update that no
 * update has taken yet; taking them is one conditional write, so two updates never share one.
 */
export async function postCampaignUpdate(deps: Deps, p: Principal, id: string, input: z.output<typeof campaignUpdatePostSchema>) {
  const before = await manageableCampaign(deps.db, p, id);
  if (!takesUpdates(before.status as CampaignStatus)) throw new AppError('CONFLICT', MSG.campaignNotUpdatable, { status: before.status });
  const text = cleanStory(input.text, 'text');
  if (new Set(input.images).size !== input.images.length) throw badRequest(MSG.campaignImageUnknown);
  const update = await transaction(deps.db, async (tx) => {
    const current = await manageableCampaign(tx, p, id);
    if (!takesUpdates(current.status as CampaignStatus)) throw new AppError('CONFLICT', MSG.campaignNotUpdatable, { status: current.status });
    const row = (await first(tx.insert(campaignUpdate).values({ campaignId: id, authorId: p.id, authorName: p.name, textEn: text.en, textHi: text.hi }).returning()))!;
    if (input.images.length > 0) {
      const taken = await tx
        .update(campaignImage)
        .set({ updateId: row.id })
        .where(and(inArray(campaignImage.id, input.images), eq(campaignImage.campaignId, id), eq(campaignImage.kind, 'UPDATE'), isNull(campaignImage.updateId)))
        .returning({ id: campaignImage.id });
      if (taken.length !== input.images.length) throw badRequest(MSG.campaignImageUnknown);
      for (const [position, imageId] of input.images.entries()) await tx.update(campaignImage).set({ position }).where(eq(campaignImage.id, imageId));
    }
    await logActivity(tx, { actor: { id: p.id, name: p.name }, action: 'CREATE', entity: 'campaign_update', entityId: row.id, newValue: { campaignId: id, text, images: input.images } });
    return row;
  });
  const images = await deps.db.select({ id: campaignImage.id, url: campaignImage.url }).from(campaignImage).where(eq(campaignImage.updateId, update.id));
  const byId = new Map(images.map((i) => [i.id, i]));
  const data = {
    id: update.id,
    campaignId: id,
    authorId: update.authorId,
    authorName: update.authorName,
    text: { en: update.textEn, hi: update.textHi },
    images: input.images.map((i) => byId.get(i)!),
    createdAt: update.createdAt,
  };
  return { success: true as const, msg: MSG.campaignUpdatePosted, data };
}
