import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../lib/i18n';

type Health = 'checking' | 'up' | 'down';

export function App() {
  const { t, i18n } = useTranslation();
  const [health, setHealth] = useState<Health>('checking');

  useEffect(() => {
    document.title = t('appName');
  }, [t]);

  useEffect(() => {
    fetch('/api/health')
      .then((r) => setHealth(r.ok ? 'up' : 'down'))
      .catch(() => setHealth('down'));
  }, []);

  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '0 auto', padding: 16 }}>
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <h1>{t('appName')}</h1>
        <label>
          {t('language')}{' '}
          <select value={i18n.language} onChange={(e) => void i18n.changeLanguage(e.target.value)}>
            {LANGUAGES.map((l) => (
              <option key={l.value} value={l.value}>
                {l.displayName}
              </option>
            ))}
          </select>
        </label>
      </header>
      <p>{t('tagline')}</p>
      <p data-testid="health">{t(`server.${health}`)}</p>
      <p>{t('demo')}</p>
    </main>
  );
}
