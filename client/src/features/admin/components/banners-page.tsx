import { ActionIcon, Alert, Badge, Button, Card, Group, Image, Loader, Modal, NumberInput, SegmentedControl, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Banner, bannerCreateSchema } from '@pm/protocol/banner';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { useCreateBanner } from '../api/create-banner';
import { useDeleteBanner } from '../api/delete-banner';
import { useAllBanners } from '../api/get-all-banners';
import { useUpdateBanner } from '../api/update-banner';
import { useConfirmedDelete } from '../hooks/use-confirmed-delete';
import { ConfirmDelete } from './confirm-delete';
import { DialogForm } from './dialog-form';

type Draft = Omit<Banner, 'id'> & { id?: string | undefined };
const bi = () => ({ en: '', hi: '' });
const EMPTY: Draft = { src: '', headline: bi(), text: bi(), callToActionText: bi(), linkToAction: '', type: 'internal', active: true, order: 0 };
type ErrorKey = 'banners.linkInvalid' | 'banners.internalLinkInvalid' | 'banners.externalLinkInvalid' | 'banners.headlineNeeded' | 'banners.tooLong';

/** Field errors of a slide, checked with the server's schema. */
export function bannerErrors(d: Draft): Record<string, ErrorKey> {
  const { id: _id, ...body } = d;
  const r = bannerCreateSchema.safeParse(body);
  const out: Record<string, ErrorKey> = {};
  if (!r.success) {
    for (const i of r.error.issues) {
      const k = String(i.path[0]);
      // The button's link must match the slide's type (sync-protocol/src/banner.ts): say which form.
      const link = d.type === 'internal' ? 'banners.internalLinkInvalid' : 'banners.externalLinkInvalid';
      out[k] ??= k === 'src' ? 'banners.linkInvalid' : k === 'linkToAction' ? link : k === 'headline' ? 'banners.headlineNeeded' : 'banners.tooLong';
    }
  }
  return out;
}

function BannerDialog({ draft, onClose }: { draft: Draft | null; onClose: () => void }) {
  const { t } = useTranslation(['admin-content', 'admin']);
  const small = useMediaQuery('(max-width: 600px)');
  const create = useCreateBanner();
  const update = useUpdateBanner();
  const [v, setV] = useState<Draft>(draft ?? EMPTY);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState(draft);
  if (shownFor !== draft) {
    setShownFor(draft);
    setV(draft ?? EMPTY);
    setTouched(false);
    setError(null);
  }
  const all = bannerErrors(v);
  const errors: Record<string, string> = touched ? Object.fromEntries(Object.entries(all).map(([k, key]) => [k, t(key)])) : {};
  const valid = Object.keys(all).length === 0;
  const set = (patch: Partial<Draft>) => {
    setV((s) => ({ ...s, ...patch }));
    setTouched(true);
  };
  const biField = (field: 'headline' | 'text' | 'callToActionText', required = false) => (
    <Group grow wrap="wrap" align="flex-start" gap="xs">
      {(['en', 'hi'] as const).map((l) => (
        <TextInput
          key={l}
          lang={l}
          label={`${t(`banners.${field}`)} (${t(l === 'en' ? 'admin:common.english' : 'admin:common.hindi')})`}
          required={required}
          value={v[field][l]}
          onChange={(e) => set({ [field]: { ...v[field], [l]: e.currentTarget.value } })}
          error={errors[field]}
          miw={200}
        />
      ))}
    </Group>
  );
  const submit = async () => {
    setTouched(true);
    if (!valid) return;
    setError(null);
    try {
      const { id, ...body } = v;
      const r = id ? await update.mutateAsync({ ...body, id }) : await create.mutateAsync(body);
      notifySuccess(translateServerMessage(r.msg));
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? translateServerMessage(e.msg) : t('admin:common.loadFailed'));
    }
  };
  return (
    <Modal opened={draft !== null} onClose={onClose} title={v.id ? t('banners.editTitle') : t('banners.addTitle')} size="lg" fullScreen={small}>
      <DialogForm onSubmit={() => void submit()} onCancel={onClose} error={error} saveDisabled={touched && !valid} saving={create.isPending || update.isPending}>
          <TextInput label={t('banners.src')} description={t('banners.linkHint')} required value={v.src} onChange={(e) => set({ src: e.currentTarget.value })} error={errors.src} />
          {biField('headline', true)}
          {biField('text')}
          {biField('callToActionText')}
          <TextInput label={t('banners.linkToAction')} description={t('banners.linkHint')} required value={v.linkToAction} onChange={(e) => set({ linkToAction: e.currentTarget.value })} error={errors.linkToAction} />
          <Group wrap="wrap">
            <SegmentedControl
              aria-label={t('banners.type')}
              value={v.type}
              onChange={(type) => set({ type: type as Draft['type'] })}
              data={[
                { value: 'internal', label: t('banners.internal') },
                { value: 'external', label: t('banners.external') },
              ]}
            />
            <NumberInput label={t('banners.order')} min={0} max={1000} allowDecimal={false} value={v.order} onChange={(n) => set({ order: typeof n === 'number' ? n : 0 })} w={120} />
            <Switch label={t('admin:common.active')} checked={v.active} onChange={(e) => set({ active: e.currentTarget.checked })} />
          </Group>
      </DialogForm>
    </Modal>
  );
}

/** Admin: Banners — the home carousel's slides; with none active, the home page shows its built-in slides. */
export default function BannersPage() {
  const { t, i18n } = useTranslation(['admin-content', 'admin']);
  const hi = i18n.language === 'hi';
  const banners = useAllBanners();
  const del = useDeleteBanner();
  const [draft, setDraft] = useState<Draft | null>(null);
  const removal = useConfirmedDelete((b: Banner) => del.mutateAsync(b.id));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('banners.title')}</Title>
        <Button onClick={() => setDraft({ ...EMPTY })}>{t('banners.add')}</Button>
      </Group>
      <Text size="sm" c="dimmed">
        {t('banners.intro')}
      </Text>
      {banners.isPending && <Loader aria-label={t('admin:common.loading')} />}
      {banners.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {(banners.data ?? []).map((b) => (
          <Card key={b.id} withBorder padding="sm">
            <Card.Section>
              <Image src={b.src} alt="" h={120} fit="cover" fallbackSrc="data:image/gif;base64,R0lGODlhAQABAAAAACw=" />
            </Card.Section>
            <Group justify="space-between" mt="xs" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <Text fw={600}>{hi ? b.headline.hi : b.headline.en}</Text>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {hi ? b.text.hi : b.text.en}
                </Text>
              </div>
              <Group gap={2} wrap="nowrap">
                <ActionIcon variant="subtle" aria-label={t('banners.editNamed', { name: b.headline.en })} onClick={() => setDraft({ ...b })}>
                  ✎
                </ActionIcon>
                <ActionIcon variant="subtle" color="red" aria-label={t('banners.deleteNamed', { name: b.headline.en })} onClick={() => removal.ask(b)}>
                  ✕
                </ActionIcon>
              </Group>
            </Group>
            <Group gap={6} mt={6}>
              <Badge variant="light" color={b.active ? 'green' : 'gray'}>
                {b.active ? t('admin:common.active') : t('admin:common.inactive')}
              </Badge>
              <Badge variant="outline">{t('banners.orderN', { n: b.order })}</Badge>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      {banners.isSuccess && banners.data.length === 0 && <Text c="dimmed">{t('banners.none')}</Text>}
      <BannerDialog draft={draft} onClose={() => setDraft(null)} />
      <ConfirmDelete name={removal.deleting?.headline.en ?? ''} opened={removal.deleting !== null} onConfirm={removal.confirm} onClose={removal.cancel} />
    </Stack>
  );
}
