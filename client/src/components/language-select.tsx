import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { type AppLanguage, LANGUAGES, switchLanguage } from '../lib/i18n';
import classes from './language-select.module.css';

/**
 * The language selector; the choice persists in local storage (lib/i18n). A native <select>
 * styled like Mantine's NativeSelect: it is on the first page (bundle budget).
 */
export function LanguageSelect({ withLabel = false }: { withLabel?: boolean }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className={classes.root}>
      {withLabel && (
        <label htmlFor={id} className={classes.label}>
          {t('nav.language')}
        </label>
      )}
      <div className={classes.field}>
        <select
          id={id}
          className={classes.select}
          aria-label={withLabel ? undefined : t('nav.language')}
          value={current}
          data-lang={current}
          onChange={(e) => void switchLanguage(e.currentTarget.value as AppLanguage)}
          data-testid="language-select"
        >
          {LANGUAGES.map((l) => (
            <option key={l.value} value={l.value}>
              {l.displayName}
            </option>
          ))}
        </select>
        <span className={classes.chevron} aria-hidden="true">
          <svg viewBox="0 0 15 15" width="15" height="15" fill="none">
            <path
              d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
              fill="currentColor"
              fillRule="evenodd"
              clipRule="evenodd"
            />
          </svg>
        </span>
      </div>
    </div>
  );
}
