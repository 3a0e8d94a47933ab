import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The interface language, for dates. */
export function useLang(): 'en' | 'hi' {
  const { i18n } = useTranslation();
  return (i18n.resolvedLanguage ?? i18n.language) === 'hi' ? 'hi' : 'en';
}

/** The time the screen opened: "overdue" and "may reopen" stay the same while it is shown (a render is pure). */
export function useNow(): number {
  const [now] = useState(() => Date.now());
  return now;
}
