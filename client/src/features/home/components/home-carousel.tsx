import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import { UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconExternalLink } from '@tabler/icons-react';
import type { EmblaCarouselType } from 'embla-carousel';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { accentVars } from './accent';
import classes from './home-carousel.module.css';
import page from './home-page.module.css';
import type { CarouselSlide } from './slides';

function SlideAction({ slide }: { slide: CarouselSlide }) {
  const { t } = useTranslation('home');
  if (slide.type === 'external') {
    return (
      <a className={page.button} href={slide.linkToAction} target="_blank" rel="noopener noreferrer">
        {slide.callToActionText}
        <VisuallyHidden> {t('carousel.newTab')}</VisuallyHidden>
        <IconExternalLink size={16} aria-hidden />
      </a>
    );
  }
  return (
    <Link className={page.button} to={slide.linkToAction}>
      {slide.callToActionText}
    </Link>
  );
}

/**
 * The home carousel (spec §2 Home). It loops both ways; the arrows, the dots and the live
 * announcement are all translated, which Mantine's built-in indicators and status are not.
 */
export function HomeCarousel({ slides }: { slides: CarouselSlide[] }) {
  const { t } = useTranslation('home');
  const [embla, setEmbla] = useState<EmblaCarouselType | null>(null);
  const [active, setActive] = useState(0);
  const total = slides.length;
  const current = slides[active];

  return (
    <div>
      <Carousel
        emblaOptions={{ loop: true }}
        getEmblaApi={setEmbla}
        onSlideChange={setActive}
        controlSize={40}
        classNames={{ root: classes.root, controls: classes.controls, control: classes.control }}
        aria-label={t('carousel.label')}
        aria-roledescription={t('carousel.roleDescription')}
        previousControlProps={{ 'aria-label': t('carousel.previous') }}
        nextControlProps={{ 'aria-label': t('carousel.next') }}
        previousControlIcon={<IconChevronLeft size={22} aria-hidden />}
        nextControlIcon={<IconChevronRight size={22} aria-hidden />}
      >
        {slides.map((slide, index) => (
          <Carousel.Slide
            key={slide.id}
            aria-roledescription={t('carousel.slideRoleDescription')}
            aria-label={t('carousel.slideLabel', { index: index + 1, total, headline: slide.headline })}
            data-testid="home-slide"
          >
            <div className={classes.slide} style={accentVars(slide.accent)}>
              <div className={classes.media}>
                {/* Decorative: the headline beside it says what the slide is about. */}
                <img src={slide.src} alt="" width={480} height={320} loading={index === 0 ? 'eager' : 'lazy'} />
              </div>
              <div className={classes.body}>
                <h2 className={page.slideTitle}>{slide.headline}</h2>
                <p className={page.text}>{slide.text}</p>
                <div>
                  <SlideAction slide={slide} />
                </div>
              </div>
            </div>
          </Carousel.Slide>
        ))}
      </Carousel>
      <VisuallyHidden role="status" aria-live="polite" aria-atomic="true">
        {current && t('carousel.status', { index: active + 1, total, headline: current.headline })}
      </VisuallyHidden>
      <div className={classes.indicators} role="group" aria-label={t('carousel.indicators')}>
        {slides.map((slide, index) => (
          <UnstyledButton
            key={slide.id}
            className={classes.indicator}
            aria-label={t('carousel.goTo', { index: index + 1, headline: slide.headline })}
            aria-current={index === active ? 'true' : undefined}
            onClick={() => embla?.scrollTo(index)}
          />
        ))}
      </div>
    </div>
  );
}
