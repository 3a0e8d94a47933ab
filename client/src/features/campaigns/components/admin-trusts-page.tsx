import { Alert, Badge, Button, Card, Checkbox, Group, Loader, NumberInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { saveTrust, type Trust, type TrustSettings, trustKeys, useTrusts } from '../api/trusts';
import { useLang } from '../hooks/use-lang';

const EMPTY: TrustSettings = { code: '', name: { en: '', hi: '' }, address: '', registrationNo: '', pan: '', approval80g: '', fcraRegistered: false, shareBps: 600, fcShareCapBps: 2000 };

/** A trust's settings as PUT/POST /trust take them: only the schema's fields (the server refuses any other, such as the id). */
function settingsOf(t: TrustSettings): TrustSettings {
  const { code, name, address, registrationNo, pan, approval80g, fcraRegistered, shareBps, fcShareCapBps } = t;
  return { code, name: { ...name }, address, registrationNo, pan, approval80g, fcraRegistered, shareBps, fcShareCapBps };
}

/** The settings of one trust, as its form edits them (the share and the foreign-contribution cap in percent, two decimals). */
function TrustForm({ trust, onDone }: { trust: Trust | null; onDone: () => void }) {
  const { t } = useTranslation(['campaign', 'common']);
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const start = settingsOf(trust ?? EMPTY);
  const form = useForm({
    initialValues: { ...start, sharePercent: (start.shareBps ?? 600) / 100, fcCapPercent: (start.fcShareCapBps ?? 2000) / 100 },
  });
  const submit = form.onSubmit(async ({ sharePercent, fcCapPercent, ...v }) => {
    setBusy(true);
    try {
      const settings: TrustSettings = {
        ...v,
        code: v.code.trim().toUpperCase(),
        pan: v.pan.trim().toUpperCase(),
        shareBps: Math.round(Number(sharePercent) * 100),
        fcShareCapBps: Math.round(Number(fcCapPercent) * 100),
      };
      const saved = await saveTrust(trust?.id ?? null, settings);
      notifySuccess(t('trusts.saved'));
      void saved;
      await client.invalidateQueries({ queryKey: trustKeys.all });
      onDone();
    } catch {
      // The server's message is shown by the API client.
    } finally {
      setBusy(false);
    }
  });
  return (
    <Card withBorder component="form" onSubmit={submit} aria-label={trust ? t('trusts.edit') : t('trusts.add')}>
      <Stack gap="xs">
        <TextInput label={t('trusts.code')} description={t('trusts.codeHint')} required maxLength={10} {...form.getInputProps('code')} />
        <TextInput label={t('trusts.nameEn')} required maxLength={200} {...form.getInputProps('name.en')} />
        <TextInput label={t('trusts.nameHi')} required maxLength={200} {...form.getInputProps('name.hi')} />
        <TextInput label={t('trusts.address')} required maxLength={300} {...form.getInputProps('address')} />
        <TextInput label={t('trusts.registrationNo')} required maxLength={100} {...form.getInputProps('registrationNo')} />
        <TextInput label={t('trusts.pan')} required maxLength={10} {...form.getInputProps('pan')} />
        <TextInput label={t('trusts.approval80g')} required maxLength={100} {...form.getInputProps('approval80g')} />
        <NumberInput label={t('trusts.share')} description={t('trusts.shareHint')} min={0} max={10} step={0.5} decimalScale={2} suffix=" %" {...form.getInputProps('sharePercent')} />
        <Checkbox label={t('trusts.fcra')} {...form.getInputProps('fcraRegistered', { type: 'checkbox' })} />
        <NumberInput label={t('trusts.fcCap')} description={t('trusts.fcCapHint')} min={0} max={20} step={0.5} decimalScale={2} suffix=" %" {...form.getInputProps('fcCapPercent')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('common:actions.save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * /admin/trusts (MANAGE_TRUST; docs/charity.md "Trusts"): the trusts campaigns are raised under,
 * with what their receipts print and the share they keep. A real installation starts with none.
 */
export default function AdminTrustsPage() {
  const { t } = useTranslation(['campaign', 'common']);
  const lang = useLang();
  const trusts = useTrusts();
  const [editing, setEditing] = useState<Trust | 'new' | null>(null);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('trusts.title')}</Title>
        {editing === null && <Button onClick={() => setEditing('new')}>{t('trusts.add')}</Button>}
      </Group>
      <Text size="sm" c="dimmed">
        {t('trusts.intro')}
      </Text>
      {editing !== null && <TrustForm trust={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      {trusts.isLoading && <Loader size="sm" aria-label={t('common:actions.loading')} />}
      {trusts.isError && <Alert color="red">{t('trusts.loadFailed')}</Alert>}
      {trusts.data?.length === 0 && <Alert color="yellow">{t('trusts.none')}</Alert>}
      {trusts.data?.map((trust) => (
        <Card key={trust.id} withBorder padding="sm" data-testid="trust">
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600}>{lang === 'hi' ? trust.name.hi || trust.name.en : trust.name.en}</Text>
              <Badge variant="light">{trust.code}</Badge>
            </Group>
            <Text size="sm">{trust.address}</Text>
            <Text size="xs" c="dimmed">
              {t('trusts.summary', { pan: trust.pan, approval: trust.approval80g, share: ((trust.shareBps ?? 600) / 100).toLocaleString(lang === 'hi' ? 'hi-IN' : 'en-IN') })}
            </Text>
            {trust.fcraRegistered && (
              <Group gap="xs">
                <Badge color="teal" variant="light">
                  {t('trusts.fcraBadge')}
                </Badge>
                <Text size="xs" c="dimmed" data-testid="trust-fc-cap">
                  {t('trusts.fcCapSummary', { cap: ((trust.fcShareCapBps ?? 2000) / 100).toLocaleString(lang === 'hi' ? 'hi-IN' : 'en-IN') })}
                </Text>
              </Group>
            )}
            <Group justify="flex-end">
              <Button size="xs" variant="light" onClick={() => setEditing(trust)}>
                {t('trusts.edit')}
              </Button>
            </Group>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
