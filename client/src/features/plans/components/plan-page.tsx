import { Alert, Button, Card, Container, Group, List, Modal, SimpleGrid, Skeleton, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import { rememberRedirect } from '@/lib/session';
import type { MyPlan } from '@pm/protocol/payment';
import { useMyPayments } from '../api/get-my-payments';
import { type PlanView, usePlans } from '../api/get-plans';
import { useCheckout } from '../hooks/use-checkout';
import { formatRupees, isPayableAmount } from '@/lib/payments/amount';
import { formatDate } from '../lib/dates';
import { stackPreview } from '../lib/stacking';

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

/** The plan in force, and what buying another one now does (docs/payments.md, "Buying while a plan is in force"). */
function ActivePlanNotice({ current, lang }: { current: MyPlan; lang: Lang }) {
  const { t } = useTranslation('plan');
  return (
    <Alert color="indigo" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} title={t('stacking.have', { plan: current.name[lang] || current.name.en, date: formatDate(current.endsAt, lang) })} data-testid="active-plan-notice">
      <Text size="sm">{t('stacking.rule')}</Text>
    </Alert>
  );
}

const limitText = (t: (k: 'stacking.unlimited') => string, n: number | null) => (n === null ? t('stacking.unlimited') : String(n));

/**
 * The checkout step of a learner who holds a plan: what they buy, its price, and what changes,
 * line by line (now → after buying), before they are sent to the provider.
 */
function StackCheckout({ plan, current, lang, onConfirm, onClose, busy }: { plan: PlanView | null; current: MyPlan; lang: Lang; onConfirm: (plan: PlanView) => void; onClose: () => void; busy: boolean }) {
  const { t } = useTranslation('plan');
  const preview = plan ? stackPreview(current, plan.code) : null;
  const name = plan ? plan.name[lang] || plan.name.en : '';
  return (
    <Modal opened={plan !== null} onClose={onClose} title={t('buyPlan', { plan: name })} centered size="md">
      {plan && preview && (
        <Stack gap="sm" data-testid="stack-checkout">
          <Text fw={600}>
            {name} · {formatRupees(plan.total, lang)}
          </Text>
          <Text size="sm">{t('stacking.starts', { plan: name, date: formatDate(preview.newEndsAt, lang) })}</Text>
          <Table withTableBorder={false} verticalSpacing={4} fz="sm" aria-label={t('stacking.changes')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th>{t('stacking.now')}</Table.Th>
                <Table.Th>{t('stacking.after')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row">{t('myPlan.mock')}</Table.Th>
                <Table.Td>{limitText(t, preview.mock.now)}</Table.Td>
                <Table.Td>{limitText(t, preview.mock.together)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('myPlan.practice')}</Table.Th>
                <Table.Td>{limitText(t, preview.practice.now)}</Table.Td>
                <Table.Td>{limitText(t, preview.practice.together)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">{t('stacking.validTill')}</Table.Th>
                <Table.Td>{formatDate(current.endsAt, lang)}</Table.Td>
                <Table.Td>{formatDate(preview.endsAt, lang)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="sm" c="dimmed">
            {t('stacking.until', { date: formatDate(preview.togetherUntil, lang) })}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('stacking.back')}
            </Button>
            <Button onClick={() => onConfirm(plan)} loading={busy}>
              {t('stacking.continue')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Pricing plans (docs/payments.md "What a plan gives"), each with Buy Now. */
export default function PlanPage() {
  const { t, i18n } = useTranslation(['plan', 'common']);
  const lang: Lang = (i18n.resolvedLanguage ?? i18n.language) === 'hi' ? 'hi' : 'en';
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const plans = usePlans();
  const checkout = useCheckout();
  // Only a signed-in learner has a plan to speak of; the page works without it.
  const mine = useMyPayments(session !== null);
  const current = mine.data?.plan ?? null;
  const [confirming, setConfirming] = useState<PlanView | null>(null);

  const buy = (plan: PlanView) => {
    // A guest is sent to login, and comes back here afterwards.
    if (!session) {
      rememberRedirect(location.pathname + location.search);
      void navigate(paths.login);
      return;
    }
    if (!isPayableAmount(plan.total)) {
      notifyError(t('plan:invalidAmount'));
      return;
    }
    // A learner with a plan in force first sees what buying another does (docs/payments.md).
    if (current && confirming === null) {
      setConfirming(plan);
      return;
    }
    setConfirming(null);
    // docs/payments.md: an order at the server's price, then the provider's page.
    void checkout.buy(plan);
  };

  return (
    <Container size="lg" py="lg">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={2}>{t('plan:title')}</Title>
          <Text c="dimmed">{t('plan:intro')}</Text>
        </Stack>

        {current && <ActivePlanNotice current={current} lang={lang} />}
        {current && <StackCheckout plan={confirming} current={current} lang={lang} onConfirm={buy} onClose={() => setConfirming(null)} busy={confirming !== null && checkout.busy === confirming.id} />}

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
