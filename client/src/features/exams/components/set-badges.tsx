import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A set's badges on the exam list and the exam intro: Free (docs/payments.md) and Mock test. */
export function SetBadges({ free, isM }: { free: boolean; isM: boolean }) {
  const { t } = useTranslation('exam');
  return (
    // Not shrunk by a long title beside it (the badges were cut to their first letter).
    <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
      {free && (
        <Badge color="green" variant="light" data-testid="free-badge">
          {t('allowance.free')}
        </Badge>
      )}
      {isM && <Badge variant="light">{t('mock')}</Badge>}
    </Group>
  );
}
