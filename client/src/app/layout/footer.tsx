import { IconBrandFacebook, IconBrandInstagram, IconBrandWhatsapp, IconBrandYoutube } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_VERSION, paths } from '../../config/paths';
import { SOCIAL_LABELS, type SocialNetwork, socialLinks } from '../../config/site-links';
import classes from './layout.module.css';

const SOCIAL_ICONS: Record<SocialNetwork, typeof IconBrandFacebook> = {
  facebook: IconBrandFacebook,
  youtube: IconBrandYoutube,
  instagram: IconBrandInstagram,
  whatsapp: IconBrandWhatsapp,
};

/**
 * Footer: policy links, the configured social buttons, a note and the version. Plain
 * elements styled like Mantine's Container/Anchor/ActionIcon: it is on every first page (bundle
 * budget).
 */
export function Footer() {
  const { t } = useTranslation();
  const social = socialLinks();
  return (
    <footer className={classes.footer}>
      <nav className={classes.footerLinks} aria-label={t('footer.links')}>
        {/* docs/charity.md: the trust's fundraising campaigns, open to every visitor. */}
        <Link to={paths.campaigns} className={classes.anchor}>
          {t('footer.campaigns')}
        </Link>
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
      {/* Only the profiles this installation configured (config/site-links): none, no group. */}
      {social.length > 0 && (
        <div className={classes.social} role="group" aria-label={t('footer.follow')}>
          {social.map(({ network, href }) => {
            const Icon = SOCIAL_ICONS[network];
            return (
              <a key={network} href={href} target="_blank" rel="noopener noreferrer" className={classes.socialButton} aria-label={t('footer.social', { network: SOCIAL_LABELS[network] })}>
                <Icon size={18} aria-hidden />
              </a>
            );
          })}
        </div>
      )}
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
