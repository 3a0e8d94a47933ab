import type { ParseKeys } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Validators return translation keys rather than texts, and the inputs translate them when they
 * render: an error already on screen then follows a change of language.
 */
export type ErrorKey = ParseKeys<['auth', 'messages']>;

export function useErrorText(): (error: ReactNode) => ReactNode {
  const { t } = useTranslation(['auth', 'messages']);
  return (error) => (typeof error === 'string' && error ? t(error as ErrorKey) : error);
}

/** For `useForm({ enhanceGetInputProps })`: every input shows its error translated. */
export function useTranslatedInputErrors() {
  const text = useErrorText();
  return ({ inputProps }: { inputProps: { error?: ReactNode } }) => ({ error: text(inputProps.error) });
}
