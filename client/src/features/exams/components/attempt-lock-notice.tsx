import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OwnerState } from '@/db/attempts/attempt-lock';

/**
 * Shown over a test that another tab of this browser owns (docs/exams.md "Two tabs, storage and eviction"): it is read-only here,
 * and one click takes it over (the other tab then shows this notice).
 */
export function AttemptLockNotice({ state, onTakeOver }: { state: OwnerState; onTakeOver: () => void }) {
  const { t } = useTranslation('exam-integrity');
  const taking = state === 'taking-over';
  return (
    <Alert color="orange" role="alert" title={t('tabs.otherTitle')} data-testid="attempt-lock-notice" radius={0}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Text size="sm" maw={640}>
          {taking ? t('tabs.takingOver') : t('tabs.otherText')}
        </Text>
        <Button color="orange" onClick={onTakeOver} loading={taking}>
          {t('tabs.takeOver')}
        </Button>
      </Group>
    </Alert>
  );
}
