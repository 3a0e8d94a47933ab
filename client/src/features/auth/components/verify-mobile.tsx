import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { requestMobileCode, verifyMobile } from '../api/verify-mobile';
import { ErrorList } from './error-list';

/** A server answer as the person reads it (the server's English, translated), or the generic one. */
function errorText(e: unknown, fallback: string): string {
  return e instanceof ApiError ? translateServerMessage(e.msg) : fallback;
}

/**
 * Verifying one's own mobile by a code sent to it (docs/sms.md "Every code by SMS"), on the
 * profile while `mv` is false. Once a code is sent the box says where it went: the mobile ending
 * in its two digits (the signed-in person's own number), and that it may come by e-mail instead.
 */
export function VerifyMobile() {
  const { t } = useTranslation(['auth', 'messages']);
  const queryClient = useQueryClient();
  const [sentTo, setSentTo] = useState<{ ending: string; email: boolean } | null>(null);
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setBusy(true);
    setErrors([]);
    try {
      const r = await requestMobileCode();
      setSentTo({ ending: r.sentTo, email: r.email });
    } catch (err) {
      setErrors([errorText(err, t('messages:someError'))]);
    } finally {
      setBusy(false);
    }
  };

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors([]);
    try {
      await verifyMobile({ code });
      notifySuccess(t('messages:mobileVerified'));
      await queryClient.invalidateQueries({ queryKey: ['person', 'me'] });
    } catch (err) {
      setErrors([errorText(err, t('messages:someError'))]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md" data-testid="verify-mobile">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('auth:profile.verifyMobileTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('auth:profile.verifyMobileIntro')}
        </Text>
        <ErrorList title={t('auth:profile.verifyMobileErrorsTitle')} errors={errors} />
        {sentTo && (
          <Alert color="blue" variant="light" role="status">
            {t('auth:profile.mobileCodeSentTo', { ending: sentTo.ending })}
            {sentTo.email ? ` ${t('auth:profile.mobileCodeMayEmail')}` : ''}
          </Alert>
        )}
        {sentTo ? (
          <form onSubmit={verify} noValidate>
            <Stack gap="sm">
              <TextInput
                label={t('auth:profile.code')}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.currentTarget.value.replace(/\D/g, ''))}
              />
              <Group justify="space-between">
                <Button variant="subtle" onClick={send} disabled={busy}>
                  {t('auth:profile.sendMobileCodeAgain')}
                </Button>
                <Button type="submit" loading={busy} disabled={code.length !== 6}>
                  {t('auth:profile.verifyMobile')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Group>
            <Button variant="light" onClick={send} loading={busy}>
              {t('auth:profile.sendMobileCode')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
