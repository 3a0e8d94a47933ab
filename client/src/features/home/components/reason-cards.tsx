import { IconDeviceMobile, IconHeart, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { accentVars } from './accent';
import classes from './home-page.module.css';

const REASONS = [
  { id: 'language', icon: IconLanguage, accent: 'indigo' },
  { id: 'anywhere', icon: IconDeviceMobile, accent: 'teal' },
  { id: 'purpose', icon: IconHeart, accent: 'orange' },
] as const;

/**
 * Where a call to join leads: /login, or Exams for someone already signed in
 * (docs/api.md "Where people land"). The drawn page is a visitor's (`/login`); once the app has
 * hydrated it, a signed-in reader's links change to Exams.
 */
export function useJoinTarget(): string {
  return useSession() ? paths.examList : paths.login;
}

/** Three reason cards, each with a Join Now button to /login. */
export function ReasonCards() {
  const { t } = useTranslation('home');
  const joinTarget = useJoinTarget();
  return (
    <section className={classes.section} aria-labelledby="home-reasons">
      <h2 className={classes.sectionTitle} id="home-reasons">
        {t('reasons.title')}
      </h2>
      <div className={classes.grid3}>
        {REASONS.map(({ id, icon: Icon, accent }) => {
          const titleId = `home-reason-${id}`;
          return (
            <article key={id} className={classes.card} aria-labelledby={titleId} style={accentVars(accent)} data-testid="reason-card">
              <span className={classes.icon} data-size="lg" aria-hidden>
                <Icon size={26} />
              </span>
              <h3 className={classes.cardTitle} id={titleId}>
                {t(`reasons.items.${id}.title`)}
              </h3>
              <p className={classes.muted}>{t(`reasons.items.${id}.text`)}</p>
              {/* Three links share the label; aria-describedby tells them apart for screen readers. */}
              <Link className={`${classes.button} ${classes.fullWidth}`} to={joinTarget} aria-describedby={titleId}>
                {t('reasons.joinNow')}
              </Link>
            </article>
          );
        })}
      </div>
    </section>
  );
}
