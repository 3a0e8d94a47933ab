import { Component, type ErrorInfo, type ReactNode, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './layout.module.css';
import { markInteractive } from './page-interactive';

/**
 * What a crashed page shows. Plain elements on purpose: it must render even when the chunk that
 * failed was the one bringing Mantine's components (offline, or a new deployment).
 */
function CrashedPage({ onHome }: { onHome: () => void }) {
  const { t } = useTranslation();
  // A prerendered page that failed to hydrate must still let its reader press "Go home".
  useLayoutEffect(() => markInteractive(), []);
  return (
    <div className={classes.message}>
      <h2 className={classes.messageTitle}>{t('errors.pageCrashed')}</h2>
      <p>{t('errors.someError')}</p>
      <Link to="/" className={classes.button} onClick={onHome}>
        {t('errors.goHome')}
      </Link>
    </div>
  );
}

type Props = { children: ReactNode; /** A change (the address) clears the error. */ resetKey?: string };

/** Each route's error boundary (CONVENTIONS rule 5); the root layout puts one around the page. */
export class RouteErrorBoundary extends Component<Props, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('unknown') };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  componentDidUpdate(prev: Props) {
    if (this.state.error && prev.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  render() {
    if (!this.state.error) return this.props.children;
    return <CrashedPage onHome={() => this.setState({ error: null })} />;
  }
}
