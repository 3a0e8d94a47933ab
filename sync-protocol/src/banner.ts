import { z } from 'zod';
import { isHttpsAddress, isSitePath } from './links';
import { MSG } from './messages';

/** A carousel slide's type: external, as the spec has it; ours adds internal links (docs/admin.md). */
export const BANNER_TYPES = ['external', 'internal'] as const;

const text = (max: number) => z.strictObject({ en: z.string().trim().max(max), hi: z.string().trim().max(max) });
const address = z.string().trim().max(2000);

/**
 * The slide's button link must be what its type says (links.ts parses it as a browser does): an
 * internal slide's link is a path of this site (the client routes to it in the same tab), an
 * external one's an https address of another site (opened in a new tab). Never javascript: or
 * data:, and never a path that a browser takes to another host (`/\evil.example`).
 */
function checkLink(v: { linkToAction: string; type: (typeof BANNER_TYPES)[number] }, ctx: z.RefinementCtx) {
  const internal = v.type === 'internal';
  if (internal ? isSitePath(v.linkToAction) : isHttpsAddress(v.linkToAction)) return;
  ctx.addIssue({ code: 'custom', path: ['linkToAction'], input: v.linkToAction, message: internal ? MSG.bannerLinkInternal : MSG.bannerLinkExternal });
}
/** The link is checked even when another field has an error, so that a form shows every problem at once. */
const linkCheckable = (payload: { value: unknown }) => {
  const v = payload.value as { linkToAction?: unknown; type?: unknown } | null;
  return typeof v?.linkToAction === 'string' && BANNER_TYPES.includes(v.type as never);
};

const bannerFields = z.strictObject({
  /** The slide's image: an https address or a file of this site (the CSP's img-src allows both). */
  src: address.refine((v) => isHttpsAddress(v) || isSitePath(v), { error: MSG.bannerImage }),
  headline: text(200).refine((v) => v.en !== '' && v.hi !== '', { error: 'The headline is needed in English and Hindi' }),
  text: text(1000),
  callToActionText: text(60),
  linkToAction: address,
  type: z.enum(BANNER_TYPES),
  active: z.boolean().default(true),
  order: z.number().int().min(0).max(1000).default(0),
});

/** POST /api/banner: a home carousel slide (src, headline, text, callToActionText, linkToAction, type; docs/admin.md). */
export const bannerCreateSchema = bannerFields.superRefine(checkLink, { when: linkCheckable });
export const bannerUpdateSchema = bannerFields.extend({ id: z.string().min(1).max(64) }).superRefine(checkLink, { when: linkCheckable });

export type Banner = {
  id: string;
  src: string;
  headline: { en: string; hi: string };
  text: { en: string; hi: string };
  callToActionText: { en: string; hi: string };
  linkToAction: string;
  type: (typeof BANNER_TYPES)[number];
  active: boolean;
  order: number;
};
