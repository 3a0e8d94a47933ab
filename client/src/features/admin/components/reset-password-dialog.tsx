import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PersonView } from '@pm/protocol/person';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { useResetPersonPassword } from '../api/reset-person-password';
import { GeneratedPasswordInput } from './generated-password-input';

/** Admin: Reset password dialog: generate, copy, and Reset disabled without a person and a password. */
export function ResetPasswordDialog({ person, onClose }: { person: PersonView | null; onClose: () => void }) {
  const { t } = useTranslation(['admin-users', 'admin']);
  const reset = useResetPersonPassword();
  const [password, setPassword] = useState('');
  const [shownFor, setShownFor] = useState<PersonView | null>(null);
  if (person !== shownFor) {
    setShownFor(person);
    setPassword('');
  }
  const tooShort = password.length > 0 && password.length < 4;
  const submit = async () => {
    if (!person) return;
    try {
      const r = await reset.mutateAsync({ personId: person.id, password });
      notifySuccess(translateServerMessage(r.msg));
      onClose();
    } catch {
      // api() has shown the server's message ('Failed to reset password' and the like).
    }
  };
  return (
    <Modal opened={person !== null} onClose={onClose} title={t('reset.title')} centered>
      <Stack>
        {person && <Text size="sm">{t('reset.for', { name: person.n, mobile: person.m })}</Text>}
        <GeneratedPasswordInput
          label={t('reset.password')}
          value={password}
          onChange={setPassword}
          required
          error={tooShort ? t('form.passwordMin') : undefined}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('admin:common.cancel')}
          </Button>
          <Button onClick={() => void submit()} disabled={!person || !password || tooShort} loading={reset.isPending}>
            {t('reset.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
