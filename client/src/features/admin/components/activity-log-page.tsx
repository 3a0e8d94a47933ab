import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** STUB — replaced by the page's real implementation (issue 6). */
export default function ActivityLogPage() {
  const { t } = useTranslation('admin-dashboard');
  return <Title order={2}>{t('pending')}</Title>;
}
