import type { TFunction } from 'i18next';
import { DONATION_CAMPAIGN_URL, paths } from '../../../config/paths';
// `?no-inline`: served as image files rather than data URLs, which would count against the
// first visit's JavaScript budget (scripts/bench-bundle.ts).
import competeSrc from '../assets/slide-compete.svg?no-inline';
import donateSrc from '../assets/slide-donate.svg?no-inline';
import practiceSrc from '../assets/slide-mock-tests.svg?no-inline';
import type { Accent } from './accent';

/** A home carousel slide, with the fields of spec §3 "Carousel slide". */
export type CarouselSlide = {
  /** Stable key; also the slide's key in home.json `slides`. */
  id: SlideId;
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

const SLIDES: readonly Omit<CarouselSlide, 'headline' | 'text' | 'callToActionText'>[] = [
  { id: 'practice', src: practiceSrc, linkToAction: paths.login, accent: 'indigo' },
  { id: 'compete', src: competeSrc, linkToAction: paths.login, accent: 'teal' },
  // Spec §2 Home: the third slide opens the external donation campaign in a new tab.
  { id: 'donate', src: donateSrc, linkToAction: DONATION_CAMPAIGN_URL, type: 'external', accent: 'orange' },
];

/** The three slides in the current language. */
export function getSlides(t: TFunction<'home'>): CarouselSlide[] {
  return SLIDES.map((slide) => ({
    ...slide,
    headline: t(`slides.${slide.id}.headline`),
    text: t(`slides.${slide.id}.text`),
    callToActionText: t(`slides.${slide.id}.callToAction`),
  }));
}
