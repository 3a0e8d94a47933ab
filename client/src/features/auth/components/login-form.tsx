import { Anchor, Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { LoginResponse } from '@pm/protocol/auth';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { notifyError, notifySuccess, notifyWarning } from '@/lib/notify';
import { sessionFromLogin, setSession, takeRedirect } from '@/lib/session';
import { login } from '../api/login';
import { type ErrorKey, useTranslatedInputErrors } from '../lib/form-errors';
import { ErrorList } from './error-list';
import { PasswordField } from './password-field';

const required = (v: string): ErrorKey | null => (v.trim() ? null : 'messages:credentialsRequired');

/** After a login or a signup: store the session and go on. */
export function useSignedIn() {
  const navigate = useNavigate();
  const { t } = useTranslation(['auth', 'messages']);
  return (r: LoginResponse, remember: boolean) => {
    setSession(sessionFromLogin(r), remember);
    if (r.iprr === 1) {
      // The password was set by someone else (admin reset, account created on one's behalf).
      notifyWarning(t('auth:login.resetWarning'));
      void navigate(paths.resetPassword, { replace: true });
    } else {
      void navigate(takeRedirect(), { replace: true });
    }
  };
}

export function LoginForm() {
  const { t } = useTranslation(['auth', 'messages']);
  const signedIn = useSignedIn();
  const [errors, setErrors] = useState<string[]>([]);
  // The remember-me checkbox is hidden, and checked so that an installed app stays
  // signed in offline (the session then also goes to localStorage).
  const [remember, setRemember] = useState(true);
  const form = useForm({
    initialValues: { username: '', password: '' },
    validateInputOnBlur: true,
    validateInputOnChange: true,
    validate: { username: required, password: (v) => (v ? null : 'messages:credentialsRequired') },
    enhanceGetInputProps: useTranslatedInputErrors(),
  });
  const mutation = useMutation({
    mutationFn: login,
    onMutate: () => setErrors([]),
    onSuccess: (r) => {
      notifySuccess(t('messages:loginSuccessful'));
      signedIn(r, remember);
    },
    onError: (e) => {
      notifyError(t('messages:loginFailed'));
      setErrors([e instanceof ApiError ? e.msg : t('messages:someError')]);
    },
  });

  return (
    <form onSubmit={form.onSubmit((v) => mutation.mutate(v))} noValidate>
      <Stack gap="sm">
        <ErrorList title={t('auth:login.errorsTitle')} errors={errors} />
        <TextInput
          label={t('auth:login.username')}
          placeholder={t('auth:login.usernamePlaceholder')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={254}
          withAsterisk
          {...form.getInputProps('username')}
        />
        <PasswordField label={t('auth:login.password')} autoComplete="current-password" withAsterisk {...form.getInputProps('password')} />
        <Checkbox
          display="none"
          label={t('auth:login.remember')}
          checked={remember}
          onChange={(e) => setRemember(e.currentTarget.checked)}
        />
        <Group justify="space-between" align="center" wrap="wrap" gap="sm">
          <Anchor component={Link} to={paths.forgotPassword} size="sm">
            {t('auth:login.forgotPassword')}
          </Anchor>
          <Button type="submit" disabled={!form.isValid()} loading={mutation.isPending}>
            {t('auth:login.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
