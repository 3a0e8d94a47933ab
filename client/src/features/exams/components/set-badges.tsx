import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A set's badges on the exam list and the exam intro: Free (issue 18) and Mock test. */
export function SetBadges({ free, isM }: { free: boolean; isM: boolean }) {
  const { t } = useTranslation('exam');
  return (
    <Group gap={4} wrap="nowrap">
      {free && (
        <Badge color="green" variant="light" data-testid="free-badge">
          {t('allowance.free')}
        </Badge>
      )}
      {isM && <Badge variant="light">{t('mock')}</Badge>}
    </Group>
  );
}
