import { Image, List, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RichHtml } from '@/components/rich-html';
import { formatDate } from '@/lib/intl-format';
import { formatPaise } from '@/lib/payments/amount';
import type { Campaign, CampaignImage, CampaignUpdate, LedgerLine, NeedItem, RecentDonation } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { goalOf, pick } from '../lib/campaign-lib';
import classes from './campaigns.module.css';

/** The campaign's images, the first one large, the rest beside it in a row that scrolls sideways. */
export function CampaignGallery({ images, title }: { images: readonly CampaignImage[]; title: string }) {
  const { t } = useTranslation('campaign');
  if (images.length === 0) return null;
  return (
    <div className={classes.gallery} role="group" aria-label={t('detail.images')}>
      {images.map((image, i) => (
        <Image key={image.id} src={image.url} alt={t('detail.imageAlt', { title, n: i + 1 })} h={i === 0 ? 240 : 120} w="auto" fit="contain" loading={i === 0 ? 'eager' : 'lazy'} />
      ))}
    </div>
  );
}

/** The story: rich text as the server sanitised it, sanitised again where it is drawn (components/rich-html). */
export function CampaignStory({ campaign }: { campaign: Pick<Campaign, 'story'> }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <Stack gap="xs" component="section" aria-labelledby="campaign-story">
      <Title order={2} size="h4" id="campaign-story">
        {t('detail.story')}
      </Title>
      <RichHtml html={pick(campaign.story, lang)} className={classes.story} />
    </Stack>
  );
}

/** What the trust will buy, each with its amount, and the goal they add up to. */
export function NeedBreakdown({ need }: { need: readonly NeedItem[] }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  if (need.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="campaign-need">
      <Title order={2} size="h4" id="campaign-need">
        {t('detail.need')}
      </Title>
      <div className={classes.tableScroll}>
        <Table fz="sm" verticalSpacing={4} data-testid="campaign-need">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('detail.needWhat')}</Table.Th>
              <Table.Th ta="right">{t('detail.needAmount')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {need.map((item, i) => (
              <Table.Tr key={i}>
                <Table.Td>
                  {pick(item.what, lang)}
                  {item.from && (
                    <Text size="xs" c="dimmed">
                      {t('detail.needFrom', { from: item.from })}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td ta="right">{formatPaise(item.amount, lang)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th>{t('detail.goal')}</Table.Th>
              <Table.Th ta="right">{formatPaise(goalOf(need), lang)}</Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </div>
    </Stack>
  );
}

/** What the money bought, newest first. */
export function CampaignUpdates({ updates }: { updates: readonly CampaignUpdate[] }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  return (
    <Stack gap="xs" component="section" aria-labelledby="campaign-updates">
      <Title order={2} size="h4" id="campaign-updates">
        {t('detail.updates')}
      </Title>
      {updates.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.noUpdates')}
        </Text>
      ) : (
        [...updates]
          .sort((a, b) => b.createdAt - a.createdAt)
          .map((u) => (
            <Stack key={u.id} gap={4} data-testid="campaign-update">
              <Text size="xs" c="dimmed">
                {formatDate(u.createdAt, lang, 'dateLong')}
              </Text>
              {/* Rich text as the server sanitised it, sanitised again here (components/rich-html). */}
              <RichHtml html={pick(u.text, lang)} className={classes.story} />
              {u.images.length > 0 && <CampaignGallery images={u.images} title={t('detail.updateOf', { date: formatDate(u.createdAt, lang, 'dateLong') })} />}
            </Stack>
          ))
      )}
    </Stack>
  );
}

/** The server says "Anonymous" for a donor who chose it (campaign-totals ANONYMOUS); shown in the reader's language. */
function useDonorName() {
  const { t } = useTranslation('campaign');
  return (name: string) => (!name || name === 'Anonymous' ? t('detail.anonymous') : name);
}

/** Recent donations: a donor's name, or "Anonymous" where they chose it. */
export function RecentDonations({ donations }: { donations: readonly RecentDonation[] }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const donorName = useDonorName();
  return (
    <Stack gap="xs" component="section" aria-labelledby="campaign-donations">
      <Title order={2} size="h4" id="campaign-donations">
        {t('detail.recentDonations')}
      </Title>
      {donations.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.noDonations')}
        </Text>
      ) : (
        <List spacing={4} size="sm" listStyleType="none" data-testid="recent-donations">
          {donations.map((d, i) => (
            <List.Item key={i}>
              <Text span fw={500}>
                {donorName(d.name)}
              </Text>{' '}
              · {formatPaise(d.amount, lang)} · <Text span c="dimmed">{formatDate(d.at, lang, 'dateLong')}</Text>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

/**
 * The campaign's public ledger (docs/charity.md "The ledger"): per donation (and per refund, its
 * figures negative) the donor, the gross, the trust's share and what reached the campaign; per
 * withdrawal paid, what left it (negative, in the campaign's column).
 */
export function CampaignLedger({ ledger }: { ledger: readonly LedgerLine[] }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const donorName = useDonorName();
  const sum = (k: 'gross' | 'share' | 'net') => ledger.reduce((s, l) => s + l[k], 0);
  // A withdrawal paid out (and one the bank returned) is a row of its own: what left the campaign (docs/charity.md "Withdrawals").
  const ledgerLabel = (l: LedgerLine) =>
    l.kind === 'REFUND'
      ? t('detail.ledgerRefund', { donor: donorName(l.donor) })
      : l.kind === 'PAYOUT'
        ? t('detail.ledgerPayout')
        : l.kind === 'PAYOUT_REVERSAL'
          ? t('detail.ledgerPayoutReversal')
          : donorName(l.donor);
  return (
    <Stack gap="xs" component="section" aria-labelledby="campaign-ledger">
      <Title order={2} size="h4" id="campaign-ledger">
        {t('detail.ledger')}
      </Title>
      <Text size="xs" c="dimmed">
        {t('detail.ledgerNote')}
      </Text>
      {ledger.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.noDonations')}
        </Text>
      ) : (
        <div className={classes.tableScroll}>
          <Table fz="sm" verticalSpacing={4} data-testid="campaign-ledger">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('detail.ledgerDate')}</Table.Th>
                <Table.Th ta="right">{t('detail.ledgerGross')}</Table.Th>
                <Table.Th ta="right">{t('detail.ledgerShare')}</Table.Th>
                <Table.Th ta="right">{t('detail.ledgerNet')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {ledger.map((l, i) => (
                <Table.Tr key={i}>
                  <Table.Td>
                    {formatDate(l.at, lang, 'date')}
                    <Text size="xs" c="dimmed">
                      {ledgerLabel(l)}
                    </Text>
                    {l.foreign && (
                      <Text size="xs" c="dimmed" data-testid="ledger-foreign">
                        {t('detail.ledgerForeign')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{formatPaise(l.gross, lang)}</Table.Td>
                  <Table.Td ta="right">{formatPaise(l.share, lang)}</Table.Td>
                  <Table.Td ta="right">{formatPaise(l.net, lang)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th>{t('detail.ledgerTotal')}</Table.Th>
                <Table.Th ta="right">{formatPaise(sum('gross'), lang)}</Table.Th>
                <Table.Th ta="right">{formatPaise(sum('share'), lang)}</Table.Th>
                <Table.Th ta="right">{formatPaise(sum('net'), lang)}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </div>
      )}
    </Stack>
  );
}
