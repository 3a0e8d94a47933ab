import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GenerateInDiffLangAnswer } from '@pm/protocol/translate';
import { ApiError } from '@/lib/api-client';
import { translateServerMessage } from '@/lib/server-messages';
import { useGenerateInDiffLang, useTranslatorStatus } from '../api/translate';

/**
 * docs/configuration.md "Machine translation" (generateInDiffLang): the set's questions translated into Hindi at once.
 * Each translation is saved as a machine draft, which learners do not see until an editor has
 * checked and saved it in the question editor; questions with a current Hindi are left alone.
 */
export function TranslateSetButton({ qids }: { qids: string[] }) {
  const { t } = useTranslation(['authoring-bank', 'messages']);
  const status = useTranslatorStatus();
  const generate = useGenerateInDiffLang();
  const [outcome, setOutcome] = useState<{ ok: GenerateInDiffLangAnswer } | { error: string } | null>(null);
  const off = status.data?.data?.mode === 'off';

  const run = async () => {
    setOutcome(null);
    try {
      setOutcome({ ok: await generate.mutateAsync({ lcode: 'hi', lname: 'Hindi', qids }) });
    } catch (err) {
      setOutcome({ error: err instanceof ApiError ? err.msg : t('translation.setFailed') });
    }
  };

  return (
    <Stack gap={4} align="flex-end">
      <Button variant="light" leftSection={<IconLanguage size={16} aria-hidden />} onClick={() => void run()} loading={generate.isPending} disabled={off || qids.length === 0}>
        {t('translation.translateSet')}
      </Button>
      <Text size="xs" c="dimmed" maw={280} ta="right">
        {off ? t('messages:translatorOff') : t('translation.translateSetHint')}
      </Text>
      {outcome && 'ok' in outcome && (
        <Alert color={outcome.ok.demo ? 'yellow' : 'blue'} variant="light" p="xs" role="status" maw={360}>
          {translateServerMessage(outcome.ok.msg)}:{' '}
          {t('translation.setResult', { translated: outcome.ok.translated.length, skipped: outcome.ok.skipped.length, refused: outcome.ok.refused.length })}
          {outcome.ok.demo && ` ${t('translation.setDemo')}`}
        </Alert>
      )}
      {outcome && 'error' in outcome && (
        <Alert color="red" variant="light" p="xs" role="alert" maw={360}>
          {outcome.error}
        </Alert>
      )}
    </Stack>
  );
}
