import { z } from 'zod';

/** Spec §3 Carousel slide: type (external); ours adds internal links. */
export const BANNER_TYPES = ['external', 'internal'] as const;

const text = (max: number) => z.strictObject({ en: z.string().trim().max(max), hi: z.string().trim().max(max) });
/** An https address or a path of this site: never javascript: or data: in an <img> or <a>. */
const link = z
  .string()
  .trim()
  .min(1, { error: 'Give an https address or a site path starting with /' })
  .max(2000)
  .refine((v) => /^https:\/\/[^\s]+$/i.test(v) || /^\/(?!\/)[^\s]*$/.test(v), { error: 'Give an https address or a site path starting with /' });

/** POST /api/banner: a home carousel slide (spec §3 Carousel slide: src, headline, text, callToActionText, linkToAction, type). */
export const bannerCreateSchema = z.strictObject({
  src: link,
  headline: text(200).refine((v) => v.en !== '' && v.hi !== '', { error: 'The headline is needed in English and Hindi' }),
  text: text(1000),
  callToActionText: text(60),
  linkToAction: link,
  type: z.enum(BANNER_TYPES),
  active: z.boolean().default(true),
  order: z.number().int().min(0).max(1000).default(0),
});
export const bannerUpdateSchema = bannerCreateSchema.extend({ id: z.string().min(1).max(64) });

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
