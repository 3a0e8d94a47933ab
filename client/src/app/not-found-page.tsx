import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './layout/layout.module.css';

/** The `*` route. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className={classes.message}>
      <h2 className={classes.messageTitle}>{t('titles.notFound')}</h2>
      <p>{t('errors.notFound')}</p>
      <Link to="/" className={classes.button}>
        {t('errors.goHome')}
      </Link>
    </div>
  );
}
