import { Anchor, Badge, Button, Group, Modal, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type DonationListRow, financialYearOf } from '@pm/protocol/donation';
import { useSession } from '@/hooks/use-session';
import { notifySuccess } from '@/lib/notify';
import { permissionsOf } from '@/lib/session';
import { formatDate } from '@/lib/intl-format';
import { formatPaise } from '@/lib/payments/amount';
import { useCampaigns } from '../api/campaigns';
import { exportDonations, payBackDoubleDebit, useDonationList } from '../api/donations';
import { useLang } from '../hooks/use-lang';
import { useNow } from '../hooks/use-now';
import { pick } from '../lib/campaign-lib';
import { campaignPath } from './campaign-page';
import { DonationStatusBadge } from './donation-bits';
import { QueryState } from '@/components/query-state';

const PAGE_SIZE = 20;

/** The financial years a Form 10BD export is offered for: this one (India time) and the four before it. */
export function recentFinancialYears(now: number, count = 5): string[] {
  const start = Number(financialYearOf(now).slice(0, 4));
  return Array.from({ length: count }, (_, i) => `${start - i}-${String((start - i + 1) % 100).padStart(2, '0')}`);
}

/**
 * A double debit owed back (docs/charity.md "Moderation"): what is owed and, for those who may
 * change orders' payments (UPDATE_ORDER, as the server checks), paying it back after a confirmation.
 */
function RefundDue({ row }: { row: DonationListRow }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const client = useQueryClient();
  const mayPay = permissionsOf(useSession()).has('UPDATE_ORDER');
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const amount = formatPaise(row.refundDue, lang);
  const payBack = async () => {
    setBusy(true);
    try {
      await payBackDoubleDebit(row.orderId);
      notifySuccess(t('adminDonations.paidBack'));
      setAsking(false);
      await client.invalidateQueries({ queryKey: ['donation'] });
    } catch {
      // The fetch wrapper has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4} mt={4} data-testid="refund-due">
      <Badge color="orange" variant="light">
        {t('adminDonations.refundDue', { amount })}
      </Badge>
      {mayPay && (
        <Button size="compact-xs" color="orange" variant="light" onClick={() => setAsking(true)}>
          {t('adminDonations.payBack')}
        </Button>
      )}
      <Modal opened={asking} onClose={() => setAsking(false)} title={t('adminDonations.payBackTitle')} centered>
        <Stack gap="sm">
          <Text size="sm">{t('adminDonations.payBackText', { amount, name: row.name })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setAsking(false)}>
              {t('adminDonations.cancel')}
            </Button>
            <Button color="orange" onClick={() => void payBack()} loading={busy}>
              {t('adminDonations.payBack')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function DonationRow({ row }: { row: DonationListRow }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <Table.Tr data-testid="admin-donation">
      <Table.Td>
        <Text size="sm" fw={500}>
          {row.name}
          {row.anonymous && (
            <Text span size="xs" c="dimmed">
              {' '}
              ({t('adminDonations.shownAnonymous')})
            </Text>
          )}
        </Text>
        <Text size="xs" c="dimmed">
          {row.email} · {row.mobile}
        </Text>
        {row.foreign && (
          <Text size="xs" data-testid="admin-donation-foreign">
            {t('adminDonations.foreign', { country: row.country ?? '' })}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Anchor component={Link} to={campaignPath(row.campaign.id)} size="sm">
          {pick(row.campaign.title, lang)}
        </Anchor>
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm">{formatPaise(row.amount, lang)}</Text>
        <Text size="xs" c="dimmed">
          {t('adminDonations.split', { share: formatPaise(row.share, lang), net: formatPaise(row.toCampaign, lang) })}
        </Text>
      </Table.Td>
      <Table.Td>
        <DonationStatusBadge status={row.status} />
        {row.receiptNo && <Text size="xs">{row.receiptNo}</Text>}
        {row.refundDue > 0 && <RefundDue row={row} />}
      </Table.Td>
      <Table.Td>
        <Text size="xs">{formatDate(row.paidAt ?? row.createdAt, lang, 'dateTime')}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

/** Form 10BD for a financial year (docs/charity.md "API": GET /donation/export), and the year's foreign contributions, as the server's CSV files. */
function ExportForm() {
  const { t } = useTranslation('campaign');
  const years = recentFinancialYears(useNow());
  const [fy, setFy] = useState<string>(years[0]!);
  const [busy, setBusy] = useState<'domestic' | 'foreign' | null>(null);
  // Foreign contributions are exported apart from Form 10BD's (docs/charity.md "Foreign contributions").
  const run = async (kind: 'domestic' | 'foreign') => {
    setBusy(kind);
    try {
      await exportDonations(fy, kind === 'foreign');
    } catch {
      // Shown by downloadFile.
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group align="flex-end" wrap="wrap" gap="sm" data-testid="donation-export">
      <Select label={t('adminDonations.financialYear')} data={years} value={fy} onChange={(v) => v && setFy(v)} allowDeselect={false} w={140} />
      <Button leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void run('domestic')} loading={busy === 'domestic'}>
        {t('adminDonations.export')}
      </Button>
      <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void run('foreign')} loading={busy === 'foreign'}>
        {t('adminDonations.exportForeign')}
      </Button>
    </Group>
  );
}

/**
 * The back office's donations (VIEW_REPORT; docs/charity.md "API": GET /donation/list): every
 * donation with the donor's contact, newest first, found by name, e-mail, mobile or receipt
 * number and by campaign; and the year's Form 10BD export.
 */
export default function AdminDonationsPage() {
  const { t } = useTranslation(['campaign', 'common']);
  const lang = useLang();
  const [input, setInput] = useState('');
  const [q] = useDebouncedValue(input.trim(), 300);
  const [campaignId, setCampaignId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const list = useDonationList({ q, campaignId: campaignId ?? undefined, page, size: PAGE_SIZE });
  const campaigns = useCampaigns({ page: 1, size: 50, sort: 'newest' });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PAGE_SIZE));
  return (
    <Stack gap="md">
      <Title order={2}>{t('campaign:adminDonations.title')}</Title>
      <ExportForm />
      <Group align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          label={t('campaign:adminDonations.search')}
          placeholder={t('campaign:adminDonations.searchHint')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={input}
          onChange={(e) => {
            setInput(e.currentTarget.value);
            setPage(1);
          }}
          maxLength={100}
          w={{ base: '100%', xs: 260 }}
        />
        <Select
          label={t('campaign:adminDonations.campaign')}
          placeholder={t('campaign:adminDonations.anyCampaign')}
          data={(campaigns.data?.data ?? []).map((c) => ({ value: c.id, label: pick(c.title, lang) }))}
          value={campaignId}
          onChange={(v) => {
            setCampaignId(v);
            setPage(1);
          }}
          clearable
          searchable
          w={{ base: '100%', xs: 260 }}
        />
      </Group>
      <QueryState query={list} failedTitle={t('campaign:adminDonations.loadFailed')}>
        {(found) =>
          found.data.length === 0 ? (
            <Text>{t('campaign:adminDonations.none')}</Text>
          ) : (
            <>
              <Text size="sm" c="dimmed" data-testid="donation-total">
                {t('campaign:adminDonations.total', { count: found.total })}
              </Text>
              <Table.ScrollContainer minWidth={680}>
                <Table verticalSpacing="xs" striped aria-label={t('campaign:adminDonations.title')}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('campaign:adminDonations.donor')}</Table.Th>
                      <Table.Th>{t('campaign:adminDonations.campaign')}</Table.Th>
                      <Table.Th ta="right">{t('campaign:adminDonations.amount')}</Table.Th>
                      <Table.Th>{t('campaign:adminDonations.status')}</Table.Th>
                      <Table.Th>{t('campaign:adminDonations.date')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {found.data.map((row) => (
                      <DonationRow key={row.orderId} row={row} />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
            </>
          )
        }
      </QueryState>
    </Stack>
  );
}
