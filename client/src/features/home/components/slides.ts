import type { TFunction } from 'i18next';
import { paths } from '@/config/paths';
import { donationCampaignUrl } from '@/config/site-links';
// `?no-inline`: the second and third slides are image files, loaded when they are near (their
// <img> is lazy), not data URLs in the first visit's JavaScript (scripts/bench-bundle.ts).
import competeSrc from '../assets/slide-compete.svg?no-inline';
import donateSrc from '../assets/slide-donate.svg?no-inline';
// `?inline`: the first slide's illustration (2.6 kB) is a data URL, in the prerendered page
// itself (scripts/vite-plugin-prerender-home.ts). It is the page's largest element: as a file it
// arrived with the app's script, and was painted only once that had run (docs/benchmarks.md "bench:lighthouse", LCP).
import practiceSrc from '../assets/slide-mock-tests.svg?inline';
import type { Banner } from '@pm/protocol/banner';
import type { Accent } from './accent';

/** A home carousel slide, as the back office's Banners screen edits it. */
export type CarouselSlide = {
  /** Stable key: the slide's key in home.json `slides`, or an admin banner's id. */
  id: string;
  src: string;
  headline: string;
  text: string;
  callToActionText: string;
  linkToAction: string;
  /** 'external' slides open their link in a new tab; the others are routes of the app. */
  type?: 'external';
  /** Colour of the slide's text side, matching its illustration. */
  accent: Accent;
};

type SlideId = 'practice' | 'compete' | 'donate';

type BuiltInSlide = Omit<CarouselSlide, 'id' | 'headline' | 'text' | 'callToActionText'> & { id: SlideId };

/**
 * The third slide: the campaign staff feature on the home page (docs/charity.md "API": GET
 * /campaign/featured), a page of this site. Without one, the external donation campaign in a new
 * tab; without a configured campaign (config/site-links) About us, which says where donations go.
 */
function donateSlide(featuredCampaignId: string | null): BuiltInSlide {
  if (featuredCampaignId) return { id: 'donate', src: donateSrc, linkToAction: `${paths.campaigns}/${encodeURIComponent(featuredCampaignId)}`, accent: 'orange' };
  const campaign = donationCampaignUrl();
  return campaign ? { id: 'donate', src: donateSrc, linkToAction: campaign, type: 'external', accent: 'orange' } : { id: 'donate', src: donateSrc, linkToAction: paths.about, accent: 'orange' };
}

function builtInSlides(featuredCampaignId: string | null): BuiltInSlide[] {
  return [
    { id: 'practice', src: practiceSrc, linkToAction: paths.login, accent: 'indigo' },
    { id: 'compete', src: competeSrc, linkToAction: paths.login, accent: 'teal' },
    donateSlide(featuredCampaignId),
  ];
}

/** The three slides in the current language; the third opens the featured campaign when there is one. */
export function getSlides(t: TFunction<'home'>, featuredCampaignId: string | null = null): CarouselSlide[] {
  return builtInSlides(featuredCampaignId).map((slide) => ({
    ...slide,
    headline: t(`slides.${slide.id}.headline`),
    text: t(`slides.${slide.id}.text`),
    callToActionText: t(`slides.${slide.id}.callToAction`),
  }));
}

const ACCENTS: readonly Accent[] = ['indigo', 'teal', 'orange'];

/** Slides from the admin's banners (back office, Banners) in the UI language; their accents take turns. */
export function bannerSlides(banners: readonly Banner[], lang: string): CarouselSlide[] {
  const pick = (v: { en: string; hi: string }) => (lang === 'hi' ? v.hi || v.en : v.en || v.hi);
  return banners.map((b, i) => ({
    id: b.id,
    src: b.src,
    headline: pick(b.headline),
    text: pick(b.text),
    callToActionText: pick(b.callToActionText),
    linkToAction: b.linkToAction,
    ...(b.type === 'external' && { type: 'external' as const }),
    accent: ACCENTS[i % ACCENTS.length] ?? 'indigo',
  }));
}
