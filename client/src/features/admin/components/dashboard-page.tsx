import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '@/hooks/use-session';
import { permissionsOf } from '@/lib/session';
import { BrandsPanel } from './brands-panel';
import { SaleReportCard } from './sale-report-card';

/** Admin: Dashboard (also /dashboard): the Sale Report card (for those who may read reports) and the Brands list. */
export default function DashboardPage() {
  const { t } = useTranslation('admin-dashboard');
  const perms = permissionsOf(useSession());
  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      {perms.has('VIEW_REPORT') && <SaleReportCard />}
      {perms.has('SHOP_EDITOR') || perms.has('CREATE_BRAND') || perms.has('UPDATE_BRAND') || perms.has('DELETE_BRAND') ? <BrandsPanel /> : null}
    </Stack>
  );
}
