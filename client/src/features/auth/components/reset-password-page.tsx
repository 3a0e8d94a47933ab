import { Alert, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { updateSession } from '@/lib/session';
import { changePassword } from '../api/change-password';
import { type ErrorKey, useTranslatedInputErrors } from '../lib/form-errors';
import { ErrorList } from './error-list';
import { PasswordField } from './password-field';
import { RequireSession } from './require-session';

type Values = { oldPassword: string; newPassword: string; confirmPassword: string };

/** Old and new required with at least 4 characters; confirm must match. */
const rules = {
  oldPassword: (v: string): ErrorKey | null => (!v ? 'auth:reset.oldRequired' : v.length < 4 ? 'messages:passwordMin' : null),
  newPassword: (v: string): ErrorKey | null => (!v ? 'auth:reset.newRequired' : v.length < 4 ? 'messages:passwordMin' : null),
  confirmPassword: (v: string, values: Values): ErrorKey | null =>
    !v ? 'auth:reset.confirmRequired' : v !== values.newPassword ? 'messages:passwordsNotSame' : null,
};

function ChangePasswordForm() {
  const { t } = useTranslation(['auth', 'messages', 'common']);
  const navigate = useNavigate();
  const session = useSession();
  const [errors, setErrors] = useState<string[]>([]);
  const form = useForm<Values>({
    initialValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    validateInputOnBlur: true,
    validate: rules,
    enhanceGetInputProps: useTranslatedInputErrors(),
  });
  const mutation = useMutation({
    mutationFn: changePassword,
    onMutate: () => setErrors([]),
    onSuccess: (r) => {
      // Older tokens stopped working with the change; keep the fresh one.
      updateSession({ token: r.token, iprr: r.iprr });
      notifySuccess(t('messages:passwordChanged'));
      void navigate(paths.profile);
    },
    onError: (e) => setErrors([e instanceof ApiError ? e.msg : t('messages:someError')]),
  });

  return (
    <form onSubmit={form.onSubmit((v) => mutation.mutate(v))} noValidate>
      <Stack gap="sm">
        {session?.iprr === 1 ? (
          <Alert color="yellow" variant="light">
            {t('auth:reset.mustReset')}
          </Alert>
        ) : (
          <Text size="sm">{t('auth:reset.intro')}</Text>
        )}
        <ErrorList title={t('auth:reset.errorsTitle')} errors={errors} />
        <PasswordField
          label={t('auth:reset.oldPassword')}
          autoComplete="current-password"
          withAsterisk
          {...form.getInputProps('oldPassword')}
        />
        <PasswordField label={t('auth:reset.newPassword')} autoComplete="new-password" withAsterisk {...form.getInputProps('newPassword')} />
        <PasswordField
          label={t('auth:reset.confirmPassword')}
          autoComplete="new-password"
          withAsterisk
          {...form.getInputProps('confirmPassword')}
        />
        <Button type="submit" disabled={!form.isValid()} loading={mutation.isPending} fullWidth>
          {t('auth:reset.save')}
        </Button>
      </Stack>
    </form>
  );
}

/** Reset Password (login required): change the password, then go to the profile. */
export default function ResetPasswordPage() {
  const { t } = useTranslation('common');
  return (
    <RequireSession>
      <Container size={480} px="md" py="lg">
        <Stack gap="md">
          <Title order={1} size="h2">
            {t('titles.resetPassword')}
          </Title>
          <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md">
            <ChangePasswordForm />
          </Paper>
        </Stack>
      </Container>
    </RequireSession>
  );
}
