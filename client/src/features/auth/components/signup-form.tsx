import { Button, Checkbox, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasUnsafeChars } from '@pm/protocol/text-rules';
import { type LookupPerson, PersonLookup } from '@/components/person-lookup';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { signup } from '../api/signup';
import { type ErrorKey, useTranslatedInputErrors } from '../lib/form-errors';
import { isEmail, isMobile } from '../lib/username';
import { ErrorList } from './error-list';
import { useSignedIn } from './login-form';
import { PasswordField } from './password-field';
import { TermsCheckbox } from './terms-checkbox';

type SignupValues = {
  name: string;
  mobile: string;
  email: string;
  password: string;
  confirmPassword: string;
  referrer: LookupPerson | null;
  /** "No one invited me": the server places the person under the trust's account (docs/api.md "Signup"). */
  noInviter: boolean;
  /** 18 or older, and the terms and the privacy policy accepted. */
  terms: boolean;
};

/** Signup's rules, with their exact messages (docs/api.md "Signup"). */
const rules = {
  name: (v: string): ErrorKey | null =>
    v.trim().length < 4 ? 'messages:fullName' : hasUnsafeChars(v.trim()) ? 'messages:unsafeCharacters' : null,
  mobile: (v: string): ErrorKey | null => (isMobile(v) ? null : 'messages:validMobile'),
  email: (v: string): ErrorKey | null => (!v.trim() || isEmail(v.trim()) ? null : 'messages:validEmail'),
  password: (v: string): ErrorKey | null => (v.length >= 4 ? null : 'messages:passwordMin'),
  confirmPassword: (v: string, values: SignupValues): ErrorKey | null =>
    v && v === values.password ? null : 'messages:passwordMismatch',
  // The referrer picker stays mandatory; "No one invited me" is the answer for those who came alone.
  referrer: (v: LookupPerson | null, values: SignupValues): ErrorKey | null => (v || values.noInviter ? null : 'messages:referrerRequired'),
  terms: (v: boolean): ErrorKey | null => (v ? null : 'auth:terms.required'),
};

export function SignupForm({ referrerMobile }: { referrerMobile: string }) {
  const { t } = useTranslation(['auth', 'messages']);
  const signedIn = useSignedIn();
  const [errors, setErrors] = useState<string[]>([]);
  const form = useForm<SignupValues>({
    initialValues: { name: '', mobile: '', email: '', password: '', confirmPassword: '', referrer: null, noInviter: false, terms: false },
    validateInputOnBlur: true,
    validate: rules,
    enhanceGetInputProps: useTranslatedInputErrors(),
  });
  const mutation = useMutation({
    mutationFn: signup,
    onMutate: () => setErrors([]),
    onSuccess: (r) => {
      notifySuccess(t('messages:userCreated'));
      // A new learner on their own device: remembered, like the login tab's default.
      signedIn(r, true);
    },
    onError: (e) => setErrors([e instanceof ApiError ? e.msg : t('messages:someError')]),
  });

  const submit = form.onSubmit((v) => {
    if (v.noInviter) mutation.mutate({ ...v, referrerId: null });
    // The lookup's handle, not a person id: the server resolves it (docs/security.md "Referrals and names").
    else if (v.referrer) mutation.mutate({ ...v, referrerId: v.referrer.id });
  });
  const noInviter = form.getValues().noInviter;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('auth:signup.intro')}
        </Text>
        <ErrorList title={t('auth:signup.errorsTitle')} errors={errors} />
        <TextInput label={t('auth:signup.name')} autoComplete="name" maxLength={100} withAsterisk {...form.getInputProps('name')} />
        <TextInput
          label={t('auth:signup.mobile')}
          placeholder={t('auth:signup.mobilePlaceholder')}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={10}
          withAsterisk
          {...form.getInputProps('mobile')}
        />
        <TextInput
          label={t('auth:signup.email')}
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={254}
          {...form.getInputProps('email')}
        />
        <PasswordField label={t('auth:signup.password')} autoComplete="new-password" withAsterisk {...form.getInputProps('password')} />
        <PasswordField
          label={t('auth:signup.confirmPassword')}
          autoComplete="new-password"
          withAsterisk
          {...form.getInputProps('confirmPassword')}
        />
        <PersonLookup
          required={!noInviter}
          disabled={noInviter}
          defaultMobile={referrerMobile}
          onChange={(p) => form.setFieldValue('referrer', p)}
        />
        <Checkbox
          label={t('auth:signup.noInviter')}
          description={t('auth:signup.noInviterHint')}
          {...form.getInputProps('noInviter', { type: 'checkbox' })}
          onChange={(e) => {
            form.setFieldValue('noInviter', e.currentTarget.checked);
            form.validateField('referrer');
          }}
        />
        <TermsCheckbox {...form.getInputProps('terms', { type: 'checkbox' })} />
        <Button type="submit" disabled={!form.isValid()} loading={mutation.isPending} fullWidth>
          {t('auth:signup.submit')}
        </Button>
      </Stack>
    </form>
  );
}
