import { IconCheck, IconHeartHandshake, IconSchool } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { accentVars } from './accent';
import classes from './home-page.module.css';

function Audience({ kind }: { kind: 'learners' | 'donors' }) {
  const { t } = useTranslation('home');
  const id = `home-why-${kind}`;
  const points = t(`about.${kind}.points`, { returnObjects: true });
  const Icon = kind === 'learners' ? IconSchool : IconHeartHandshake;
  return (
    <section className={classes.card} aria-labelledby={id} style={accentVars(kind === 'learners' ? 'indigo' : 'orange')}>
      <h3 className={classes.cardTitle} id={id}>
        <span className={classes.icon} aria-hidden>
          <Icon size={22} />
        </span>
        {t(`about.${kind}.title`)}
      </h3>
      <ul className={classes.checkList}>
        {points.map((point) => (
          <li key={point}>
            <span className={classes.check} aria-hidden>
              <IconCheck size={13} stroke={3} />
            </span>
            <span>{point}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What the platform is, and why learners and donors should use it. */
export function WhySection() {
  const { t } = useTranslation('home');
  const paragraphs = t('about.paragraphs', { returnObjects: true });
  return (
    <section className={classes.section} aria-labelledby="home-what">
      <h2 className={classes.sectionTitle} id="home-what">
        {t('about.title')}
      </h2>
      {paragraphs.map((p) => (
        <p key={p} className={classes.lead}>
          {p}
        </p>
      ))}
      <div className={classes.grid2}>
        <Audience kind="learners" />
        <Audience kind="donors" />
      </div>
    </section>
  );
}
