import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** STUB — replaced by the page's real implementation (issue 6). */
export default function UserReportPage() {
  const { t } = useTranslation('admin-content');
  return <Title order={2}>{t('pending')}</Title>;
}
