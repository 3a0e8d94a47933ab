import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getLoading, subscribeLoading } from '../lib/loading';
import classes from './loading-bar.module.css';

/** The global loading bar: on while a non-background request runs. */
export function LoadingBar() {
  const { t } = useTranslation();
  const loading = useSyncExternalStore(subscribeLoading, getLoading, () => false);
  if (!loading) return null;
  return <div className={classes.bar} role="progressbar" aria-label={t('actions.loading')} data-testid="loading-bar" />;
}
