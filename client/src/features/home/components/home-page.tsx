import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { HomeCarousel } from './home-carousel';
import classes from './home-page.module.css';
import { ReasonCards } from './reason-cards';
import { getSlides } from './slides';
import { WhySection } from './why-section';

/** Home page (spec §2 Home): carousel, what/why section, three reason cards. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const slides = useMemo(() => getSlides(t), [t]);
  return (
    <div className={classes.page}>
      <h1 className={classes.title}>{t('title')}</h1>
      <HomeCarousel slides={slides} />
      <WhySection />
      <ReasonCards />
    </div>
  );
}
