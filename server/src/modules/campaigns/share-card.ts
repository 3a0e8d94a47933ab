import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Conn } from '../../db/client';
import { campaign, campaignImage } from '../../db/schema';
import { first } from '../../db/transaction';
import type { Config } from '../../env';
import type { ShareCard } from '../../lib/client-files';
import { siteUrl } from '../../lib/site-url';
import { PUBLIC_CAMPAIGN_STATUSES } from '@pm/protocol/campaign';
import { campaignTotals } from './campaign-totals';

/** Rupees as a messaging app's preview shows them: ₹1,25,000. */
const rupees = (paise: number) => `₹${Math.round(paise / 100).toLocaleString('en-IN')}`;

/**
 * The card a messaging app shows for a shared campaign page (docs/charity.md "Sharing"): its
 * title, what it raised of its goal, and its first image. Only a public campaign has one: a
 * draft's title never reaches a stranger through its address.
 */
export function campaignShareCard(db: Conn, config: Pick<Config, 'PUBLIC_URL'>) {
  return async (pathname: string): Promise<ShareCard | null> => {
    const id = /^\/campaigns\/([A-Za-z0-9_-]{1,64})$/.exec(pathname)?.[1];
    if (!id) return null;
    const row = await first(
      db
        .select({ id: campaign.id, titleEn: campaign.titleEn, titleHi: campaign.titleHi, goal: campaign.goal })
        .from(campaign)
        .where(and(eq(campaign.id, id), inArray(campaign.status, [...PUBLIC_CAMPAIGN_STATUSES]))),
    );
    if (!row) return null;
    const image = await first(
      db
        .select({ url: campaignImage.url })
        .from(campaignImage)
        .where(and(eq(campaignImage.campaignId, id), eq(campaignImage.kind, 'CAMPAIGN')))
        .orderBy(asc(campaignImage.position))
        .limit(1),
    );
    const raised = (await campaignTotals(db, [id])).get(id)?.raised ?? 0;
    return {
      title: row.titleHi ? `${row.titleEn} | ${row.titleHi}` : row.titleEn,
      description: `${rupees(raised)} raised of ${rupees(row.goal)} · ${rupees(raised)} / ${rupees(row.goal)} जुटाए गए`,
      image: image ? siteUrl(config, image.url.startsWith('/') ? image.url : `/${image.url}`) : null,
      url: siteUrl(config, `/campaigns/${id}`),
    };
  };
}
