import { IconBrandFacebook, IconBrandInstagram, IconBrandWhatsapp, IconBrandYoutube } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_VERSION, paths } from '../../config/paths';
import classes from './layout.module.css';

const SOCIAL = [
  { key: 'facebook', label: 'Facebook', href: 'https://www.facebook.com/', icon: IconBrandFacebook },
  { key: 'youtube', label: 'YouTube', href: 'https://www.youtube.com/', icon: IconBrandYoutube },
  { key: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/', icon: IconBrandInstagram },
  { key: 'whatsapp', label: 'WhatsApp', href: 'https://www.whatsapp.com/', icon: IconBrandWhatsapp },
];

/**
 * Footer (spec §2): policy links, social buttons, a note and the version. Plain elements styled
 * like Mantine's Container/Anchor/ActionIcon: it is on every first page (bundle budget).
 */
export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className={classes.footer}>
      <nav className={classes.footerLinks} aria-label={t('footer.links')}>
        <Link to={paths.privacy} className={classes.anchor}>
          {t('footer.privacy')}
        </Link>
        <Link to={paths.terms} className={classes.anchor}>
          {t('footer.terms')}
        </Link>
        <Link to={paths.faq} className={classes.anchor}>
          {t('footer.faq')}
        </Link>
        <Link to={paths.contact} className={classes.anchor}>
          {t('footer.contact')}
        </Link>
      </nav>
      <div className={classes.social} role="group" aria-label={t('footer.follow')}>
        {SOCIAL.map(({ key, label, href, icon: Icon }) => (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer" className={classes.socialButton} aria-label={label}>
            <Icon size={18} aria-hidden />
          </a>
        ))}
      </div>
      <p className={classes.dimmed}>{t('footer.note')}</p>
      <div className={classes.footerBottom}>
        <p className={classes.dimmed} data-size="xs">
          {t('footer.rights', { year: new Date().getFullYear() })}
        </p>
        <p className={classes.dimmed} data-size="xs" data-testid="footer-version">
          {t('nav.version', { version: APP_VERSION })}
        </p>
      </div>
    </footer>
  );
}
