import { Anchor, Checkbox, type CheckboxProps } from '@mantine/core';
import { Trans, useTranslation } from 'react-i18next';
import { paths } from '@/config/paths';

/**
 * The one confirmation signup and a new version of the terms ask for (users must be 18 or
 * older, and the terms bind them; docs/api.md "Signup"): both facts in one clearly worded box, with
 * the terms and the privacy policy a press away, in a new tab so that the form keeps what was typed.
 */
export function TermsCheckbox(props: Omit<CheckboxProps, 'label'>) {
  const { t } = useTranslation('auth');
  const link = (to: string) => <Anchor href={to} target="_blank" rel="noopener" inherit underline="always" />;
  return (
    <Checkbox
      {...props}
      label={<Trans t={t} i18nKey="terms.confirm" components={{ terms: link(paths.terms), privacy: link(paths.privacy) }} />}
    />
  );
}
