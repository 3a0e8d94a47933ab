import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './layout/layout.module.css';

/**
 * What a signed-in person sees on a screen their permissions do not open (config/route-access):
 * said in place, with a way back, and never the login form, which would read as if they had
 * been logged out (docs/admin.md, Who sees what).
 */
export default function NoAccessPage() {
  const { t } = useTranslation();
  return (
    <div className={classes.message} role="alert" data-testid="no-access">
      <h2 className={classes.messageTitle}>{t('noAccess.title')}</h2>
      <p>{t('noAccess.text')}</p>
      <Link to="/" className={classes.button}>
        {t('errors.goHome')}
      </Link>
    </div>
  );
}
