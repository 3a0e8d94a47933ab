import { Alert, Button, Card, Container, Group, List, SimpleGrid, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { useSession } from '../../../hooks/use-session';
import { ApiError } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { rememberRedirect } from '../../../lib/session';
import { type PlanView, usePlans } from '../api/get-plans';
import { useCheckout } from '../hooks/use-checkout';
import { formatRupees, isPayableAmount } from '../lib/amount';

type Lang = 'en' | 'hi';

function PlanCard({ plan, lang, onBuy, busy, disabled }: { plan: PlanView; lang: Lang; onBuy: (plan: PlanView) => void; busy: boolean; disabled: boolean }) {
  const { t } = useTranslation('plan');
  const titleId = useId();
  return (
    <Card withBorder radius="md" padding="lg" data-testid={`plan-${plan.code}`}>
      <Stack gap="sm" h="100%">
        <Title order={3} id={titleId}>
          {plan.name[lang]}
        </Title>
        <Group gap={6} align="baseline">
          <Text fz={32} fw={700} lh={1}>
            {formatRupees(plan.total, lang)}
          </Text>
          <Text c="dimmed" size="sm">
            {t('total')}
          </Text>
        </Group>
        <Text size="sm" c="indigo.7" fw={500}>
          {plan.approx[lang]}
        </Text>
        <Text size="sm" fw={600} mt="xs">
          {t('includes')}
        </Text>
        <List
          spacing={6}
          size="sm"
          icon={
            <ThemeIcon size={20} radius="xl" color="teal" variant="light">
              <IconCheck size={14} aria-hidden />
            </ThemeIcon>
          }
        >
          {plan.contents.map((c) => (
            <List.Item key={c.en}>{c[lang]}</List.Item>
          ))}
        </List>
        <Button mt="auto" fullWidth onClick={() => onBuy(plan)} aria-describedby={titleId} loading={busy} disabled={disabled}>
          {t('buyNow')}
        </Button>
      </Stack>
    </Card>
  );
}

/** Pricing plans (spec §2 Plan page, §9 Plans), each with Buy Now (spec §5 Buy). */
export default function PlanPage() {
  const { t, i18n } = useTranslation(['plan', 'common']);
  const lang: Lang = (i18n.resolvedLanguage ?? i18n.language) === 'hi' ? 'hi' : 'en';
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const plans = usePlans();
  const checkout = useCheckout();

  const buy = (plan: PlanView) => {
    // Spec §5 Buy: a guest is sent to login, and comes back here afterwards.
    if (!session) {
      rememberRedirect(location.pathname + location.search);
      void navigate(paths.login);
      return;
    }
    if (!isPayableAmount(plan.total)) {
      notifyError(t('plan:invalidAmount'));
      return;
    }
    // Spec §7 Payments: an order at the server's price, then the provider's page.
    void checkout.buy(plan);
  };

  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={2}>{t('plan:title')}</Title>
          <Text c="dimmed">{t('plan:intro')}</Text>
        </Stack>

        {plans.isPending && (
          <SimpleGrid cols={{ base: 1, sm: 3 }} aria-busy="true">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={360} radius="md" />
            ))}
          </SimpleGrid>
        )}

        {plans.isError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('plan:loadFailed')} role="alert">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{plans.error instanceof ApiError ? plans.error.msg : t('common:errors.someError')}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void plans.refetch()}>
                {t('common:errors.tryAgain')}
              </Button>
            </Stack>
          </Alert>
        )}

        {plans.isSuccess && plans.data.length === 0 && <Text>{t('plan:empty')}</Text>}

        {plans.isSuccess && plans.data.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {plans.data.map((plan) => (
              <PlanCard key={plan.id} plan={plan} lang={lang} onBuy={buy} busy={checkout.busy === plan.id} disabled={checkout.busy !== null && checkout.busy !== plan.id} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Container>
  );
}
