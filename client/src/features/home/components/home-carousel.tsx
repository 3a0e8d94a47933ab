import { IconChevronLeft, IconChevronRight, IconExternalLink } from '@tabler/icons-react';
import { type KeyboardEvent, type PointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { accentVars } from './accent';
import classes from './home-carousel.module.css';
import page from './home-page.module.css';
import { useJoinTarget } from './reason-cards';
import type { CarouselSlide } from './slides';

function SlideAction({ slide }: { slide: CarouselSlide }) {
  const { t } = useTranslation('home');
  const joinTarget = useJoinTarget();
  if (slide.type === 'external') {
    return (
      <a className={page.button} href={slide.linkToAction} target="_blank" rel="noopener noreferrer">
        {slide.callToActionText}
        <span className={classes.visuallyHidden}> {t('carousel.newTab')}</span>
        <IconExternalLink size={16} aria-hidden />
      </a>
    );
  }
  return (
    // A call to join (to /login) leads a signed-in reader to Exams, as Join Now does.
    <Link className={page.button} to={slide.linkToAction === paths.login ? joinTarget : slide.linkToAction}>
      {slide.callToActionText}
    </Link>
  );
}

/**
 * The home carousel: three slides that wrap around forward and backward, with
 * arrows, dots, arrow keys and swipe. Written here rather than with @mantine/carousel and Embla
 * because those (about 15 kB gzip) do not fit the first visit's 130 kB JavaScript budget
 * (scripts/bench-bundle.ts); the arrows, dots and live announcement are all translated.
 */
export function HomeCarousel({ slides }: { slides: CarouselSlide[] }) {
  const { t } = useTranslation('home');
  const [active, setActive] = useState(0);
  const total = slides.length;
  const current = slides[active];
  const swipeFrom = useRef<number | null>(null);

  // Wraps both ways: before the first comes the last, after the last the first.
  const go = (index: number) => setActive(((index % total) + total) % total);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') go(active - 1);
    else if (e.key === 'ArrowRight') go(active + 1);
    else return;
    e.preventDefault();
  };
  const onPointerDown = (e: PointerEvent) => {
    swipeFrom.current = e.clientX;
  };
  const onPointerUp = (e: PointerEvent) => {
    const from = swipeFrom.current;
    swipeFrom.current = null;
    if (from === null) return;
    const dx = e.clientX - from;
    if (Math.abs(dx) > 40) go(dx < 0 ? active + 1 : active - 1);
  };

  return (
    <div>
      <section
        className={classes.root}
        aria-label={t('carousel.label')}
        aria-roledescription={t('carousel.roleDescription')}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
      >
        <div className={classes.viewport}>
          <div className={classes.track} style={{ transform: `translateX(-${active * 100}%)` }}>
            {slides.map((slide, index) => (
              <div
                key={slide.id}
                className={classes.slideBox}
                role="group"
                aria-roledescription={t('carousel.slideRoleDescription')}
                aria-label={t('carousel.slideLabel', { index: index + 1, total, headline: slide.headline })}
                aria-hidden={index !== active}
                inert={index !== active}
                data-testid="home-slide"
              >
                <div className={classes.slide} style={accentVars(slide.accent)}>
                  <div className={classes.media}>
                    {/* Decorative: the headline beside it says what the slide is about. */}
                    <img src={slide.src} alt="" width={480} height={320} loading={index === 0 ? 'eager' : 'lazy'} draggable={false} />
                  </div>
                  <div className={classes.body}>
                    <h2 className={page.slideTitle}>{slide.headline}</h2>
                    <p className={page.text}>{slide.text}</p>
                    <div>
                      <SlideAction slide={slide} />
                    </div>
                  </div>
                </div>
              </div>
            ))}
          </div>
        </div>
        <div className={classes.controls}>
          <button type="button" className={classes.control} aria-label={t('carousel.previous')} onClick={() => go(active - 1)}>
            <IconChevronLeft size={22} aria-hidden />
          </button>
          <button type="button" className={classes.control} aria-label={t('carousel.next')} onClick={() => go(active + 1)}>
            <IconChevronRight size={22} aria-hidden />
          </button>
        </div>
      </section>
      <div className={classes.visuallyHidden} role="status" aria-live="polite" aria-atomic="true">
        {current && t('carousel.status', { index: active + 1, total, headline: current.headline })}
      </div>
      <div className={classes.indicators} role="group" aria-label={t('carousel.indicators')}>
        {slides.map((slide, index) => (
          <button
            type="button"
            key={slide.id}
            className={classes.indicator}
            aria-label={t('carousel.goTo', { index: index + 1, headline: slide.headline })}
            aria-current={index === active ? 'true' : undefined}
            onClick={() => go(index)}
          />
        ))}
      </div>
    </div>
  );
}
