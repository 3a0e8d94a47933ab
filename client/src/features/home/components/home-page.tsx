import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Banner } from '@pm/protocol/banner';
import { fetchBanners } from '@/lib/banners';
import { fetchFeaturedCampaignId } from '@/lib/featured-campaign';
import { HomeCarousel } from './home-carousel';
import classes from './home-page.module.css';
import { ReasonCards } from './reason-cards';
import { bannerSlides, getSlides } from './slides';
import { WhySection } from './why-section';

/** Home page: carousel, what/why section, three reason cards. */
export default function HomePage() {
  const { t, i18n } = useTranslation('home');
  // The admin's banners replace the built-in slides when there are any (back office, Banners).
  // The first visit renders the built-in slides at once and never waits for this request.
  const [banners, setBanners] = useState<Banner[]>([]);
  // The campaign the built-in third slide opens (docs/charity.md "API"), asked the same way and
  // only when there are no banners (they replace that slide).
  const [featured, setFeatured] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const loadFeatured = () =>
      fetchFeaturedCampaignId()
        .then((id) => live && setFeatured(id))
        .catch(() => undefined);
    fetchBanners()
      .then((list) => {
        if (!live) return;
        setBanners(list);
        if (list.length === 0) void loadFeatured();
      })
      .catch(() => void loadFeatured());
    return () => {
      live = false;
    };
  }, []);
  const slides = useMemo(() => (banners.length ? bannerSlides(banners, i18n.language) : getSlides(t, featured)), [banners, t, i18n.language, featured]);
  return (
    <div className={classes.page}>
      <h1 className={classes.title}>{t('title')}</h1>
      {/* A new set of slides starts again at its first one (the visitor may have moved on meanwhile). */}
      <HomeCarousel key={banners.length ? 'banners' : 'built-in'} slides={slides} />
      <WhySection />
      <ReasonCards />
    </div>
  );
}
