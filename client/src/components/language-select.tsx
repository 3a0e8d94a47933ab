import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../lib/i18n';

/** The language selector; the choice persists in local storage (lib/i18n). */
export function LanguageSelect({ withLabel = false }: { withLabel?: boolean }) {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      aria-label={t('nav.language')}
      label={withLabel ? t('nav.language') : undefined}
      value={i18n.resolvedLanguage ?? i18n.language}
      onChange={(e) => void i18n.changeLanguage(e.currentTarget.value)}
      data={LANGUAGES.map((l) => ({ value: l.value, label: l.displayName }))}
      size="sm"
      data-testid="language-select"
    />
  );
}
