import { Alert, Anchor, Button, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { passwordShapeProblem } from '@pm/protocol/auth';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { requestResetCode } from '../api/request-reset-code';
import { resetWithCode } from '../api/reset-with-code';
import { type ErrorKey, useTranslatedInputErrors } from '../lib/form-errors';
import { isEmail, isMobile } from '../lib/username';
import { ErrorList } from './error-list';
import { PasswordField } from './password-field';

const messageOf = (e: unknown, fallback: string) => (e instanceof ApiError ? e.msg : fallback);

/** Step 1: a mobile or an e-mail; an entry with '@' must be a valid e-mail. */
function usernameRule(v: string): ErrorKey | null {
  const u = v.trim();
  if (!u) return 'auth:forgot.usernameRequired';
  if (u.includes('@')) return isEmail(u) ? null : 'messages:invalidEmail';
  return isMobile(u.replace(/^\+?91(?=\d{10}$)/, '')) ? null : 'messages:validMobile';
}

type CodeValues = { newPassword: string; confirmPassword: string; otp: string };

/**
 * Step 2: 'Password and OTP are required', passwords must match; the
 * new password follows the shape rules every client shares (no blank, no control characters).
 * The server adds the breached-password list and the account's own mobile and e-mail.
 */
const codeRules = {
  newPassword: (v: string): ErrorKey | null => {
    if (!v) return 'messages:passwordAndOtpRequired';
    const problem = passwordShapeProblem(v);
    return problem ? `messages:${problem}` : null;
  },
  confirmPassword: (v: string, values: CodeValues): ErrorKey | null => (v === values.newPassword ? null : 'messages:passwordsNotSame'),
  otp: (v: string): ErrorKey | null => (!v.trim() ? 'messages:passwordAndOtpRequired' : /^\d{6}$/.test(v.trim()) ? null : 'auth:forgot.otpDigits'),
};

/**
 * Forgot password: request a code for a mobile or e-mail; when the server reports
 * success, the code form appears; a new password set with the code leads to /login.
 */
export default function ForgotPasswordPage() {
  const { t } = useTranslation(['auth', 'messages', 'common']);
  const navigate = useNavigate();
  const translateErrors = useTranslatedInputErrors();
  const [username, setUsername] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);

  const requestForm = useForm({
    initialValues: { username: '' },
    validateInputOnBlur: true,
    validate: { username: usernameRule },
    enhanceGetInputProps: translateErrors,
  });
  const codeForm = useForm<CodeValues>({
    initialValues: { newPassword: '', confirmPassword: '', otp: '' },
    validateInputOnBlur: true,
    validate: codeRules,
    enhanceGetInputProps: translateErrors,
  });

  const request = useMutation({
    mutationFn: (u: string) => requestResetCode(u),
    onMutate: () => setErrors([]),
    onSuccess: (r, u) => {
      if (!r.success) {
        setErrors([t('messages:emailNotSent')]);
        return;
      }
      notifySuccess(t('messages:resetCodeSent'));
      setUsername(u);
    },
    onError: (e) => {
      const msg = messageOf(e, t('messages:emailNotSent'));
      notifyError(msg);
      setErrors([msg]);
    },
  });
  const reset = useMutation({
    mutationFn: resetWithCode,
    onMutate: () => setErrors([]),
    onSuccess: () => {
      notifySuccess(t('messages:passwordResetSuccessful'));
      void navigate(paths.login);
    },
    onError: (e) => {
      notifyError(t('messages:passwordResetFailed'));
      setErrors([messageOf(e, t('messages:someError'))]);
    },
  });

  return (
    <Container size={480} px="md" py="lg">
      <Stack gap="md">
        <Title order={1} size="h2">
          {t('common:titles.forgotPassword')}
        </Title>
        <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md">
          <Stack gap="sm">
            <ErrorList title={t('auth:forgot.errorsTitle')} errors={errors} />
            {username === null ? (
              <form onSubmit={requestForm.onSubmit((v) => request.mutate(v.username.trim()))} noValidate>
                <Stack gap="sm">
                  <Text size="sm">{t('auth:forgot.intro')}</Text>
                  <TextInput
                    label={t('auth:forgot.username')}
                    placeholder={t('auth:forgot.usernamePlaceholder')}
                    autoComplete="username"
                    autoCapitalize="none"
                    spellCheck={false}
                    maxLength={254}
                    withAsterisk
                    {...requestForm.getInputProps('username')}
                  />
                  <Button type="submit" disabled={!requestForm.isValid()} loading={request.isPending} fullWidth>
                    {t('auth:forgot.request')}
                  </Button>
                </Stack>
              </form>
            ) : (
              <form
                onSubmit={codeForm.onSubmit((v) => reset.mutate({ username, code: v.otp.trim(), newPassword: v.newPassword }))}
                noValidate
              >
                <Stack gap="sm">
                  <Alert color="green" variant="light" role="status" title={t('messages:resetCodeSent')}>
                    {t('auth:forgot.codeSent')}
                  </Alert>
                  <PasswordField
                    label={t('auth:forgot.newPassword')}
                    autoComplete="new-password"
                    withAsterisk
                    {...codeForm.getInputProps('newPassword')}
                  />
                  <PasswordField
                    label={t('auth:forgot.confirmPassword')}
                    autoComplete="new-password"
                    withAsterisk
                    {...codeForm.getInputProps('confirmPassword')}
                  />
                  <TextInput
                    label={t('auth:forgot.otp')}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    withAsterisk
                    {...codeForm.getInputProps('otp')}
                  />
                  <Button type="submit" disabled={!codeForm.isValid()} loading={reset.isPending} fullWidth>
                    {t('auth:forgot.submit')}
                  </Button>
                  <Group justify="center">
                    <Button variant="subtle" size="compact-sm" onClick={() => request.mutate(username)} loading={request.isPending}>
                      {t('auth:forgot.requestAgain')}
                    </Button>
                  </Group>
                </Stack>
              </form>
            )}
            <Anchor component={Link} to={paths.login} size="sm" ta="center">
              {t('auth:forgot.backToLogin')}
            </Anchor>
          </Stack>
        </Paper>
      </Stack>
    </Container>
  );
}
