import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MSG } from '@pm/protocol/messages';
import { ApiError } from '@/lib/api-client';
import { requestLogout } from '@/lib/logout-request';
import { notifySuccess } from '@/lib/notify';
import { clearSession, updateSession } from '@/lib/session';
import { acceptTerms } from '../api/accept-terms';
import { getTerms } from '../api/get-terms';
import { ErrorList } from './error-list';
import { TermsCheckbox } from './terms-checkbox';

/**
 * Asks a signed-in person to accept the terms' version in force before going on (docs/api.md
 * "Terms"): after the installation changed its terms, or at the first login of an account made by
 * staff. Shown over every page by the shell while the session says "not accepted"; it cannot be
 * dismissed, only accepted (recorded by the server) or left by logging out.
 */
export default function TermsGate({ version }: { version: string }) {
  const { t } = useTranslation(['auth', 'messages']);
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  // Not TanStack Query: the shell shows this over the home page too, which has no query client.
  const accept = async () => {
    setBusy(true);
    setErrors([]);
    try {
      const r = await acceptTerms({ version });
      updateSession({ terms: { version: r.version, accepted: true } });
      notifySuccess(t('messages:termsAccepted'));
    } catch (e) {
      setErrors([e instanceof ApiError ? e.msg : t('messages:someError')]);
      // The terms changed again meanwhile: show the new version, to be read and accepted afresh.
      if (e instanceof ApiError && e.msg === MSG.termsChanged) {
        const now = await getTerms().catch(() => null);
        if (now) {
          setChecked(false);
          updateSession({ terms: { version: now.version, accepted: now.accepted } });
        }
      }
    } finally {
      setBusy(false);
    }
  };
  const logout = () => {
    if (!requestLogout()) clearSession();
  };
  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title={t('auth:terms.title')}
      data-testid="terms-gate"
    >
      <Stack gap="sm">
        <Text size="sm">{t('auth:terms.text')}</Text>
        <ErrorList title={t('auth:terms.errorsTitle')} errors={errors} />
        <TermsCheckbox checked={checked} onChange={(e) => setChecked(e.currentTarget.checked)} />
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Button variant="default" onClick={logout} disabled={busy}>
            {t('auth:terms.logout')}
          </Button>
          <Button onClick={() => void accept()} disabled={!checked} loading={busy}>
            {t('auth:terms.continue')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
