import { ActionIcon, Alert, Avatar, Button, Card, Group, Loader, Modal, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { brandCreateSchema } from '@pm/protocol/brand';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { permissionsOf } from '@/lib/session';
import { useCreateBrand } from '../api/create-brand';
import { useDeleteBrand } from '../api/delete-brand';
import { type Brand, useBrands } from '../api/get-brands';
import { useUpdateBrand } from '../api/update-brand';
import { useConfirmedDelete } from '../hooks/use-confirmed-delete';
import { ConfirmDelete } from './confirm-delete';
import { DialogForm } from './dialog-form';

type Draft = { id?: string; name: string; description: string; logo: string };

/** Field errors of a brand draft, from the server's own schema (translated server texts). */
export function brandErrors(d: Draft): Partial<Record<'name' | 'description' | 'logo', string>> {
  const r = brandCreateSchema.safeParse({ name: d.name, description: d.description, logo: d.logo.trim() || null });
  if (r.success) return {};
  const out: Partial<Record<'name' | 'description' | 'logo', string>> = {};
  for (const i of r.error.issues) {
    const k = i.path[0] as 'name' | 'description' | 'logo';
    out[k] ??= translateServerMessage(i.message);
  }
  return out;
}

function BrandDialog({ draft, onClose }: { draft: Draft | null; onClose: () => void }) {
  // 'messages' holds the translations of the schema's (server) texts shown under the fields.
  const { t } = useTranslation(['admin-dashboard', 'admin', 'messages']);
  const create = useCreateBrand();
  const update = useUpdateBrand();
  const [values, setValues] = useState<Draft>(draft ?? { name: '', description: '', logo: '' });
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState(draft);
  if (shownFor !== draft) {
    setShownFor(draft);
    setValues(draft ?? { name: '', description: '', logo: '' });
    setTouched(false);
    setError(null);
  }
  const errors = brandErrors(values);
  const valid = Object.keys(errors).length === 0;
  const submit = async () => {
    setTouched(true);
    if (!valid) return;
    setError(null);
    try {
      const body = { name: values.name.trim(), description: values.description.trim(), logo: values.logo.trim() || null };
      const r = values.id ? await update.mutateAsync({ id: values.id, ...body }) : await create.mutateAsync(body);
      notifySuccess(translateServerMessage(r.msg));
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.msg : t('messages:someError'));
    }
  };
  return (
    <Modal opened={draft !== null} onClose={onClose} title={values.id ? t('brands.editTitle') : t('brands.addTitle')} centered>
      <DialogForm onSubmit={() => void submit()} onCancel={onClose} error={error} saveDisabled={touched && !valid} saving={create.isPending || update.isPending}>
        <TextInput
          label={t('brands.name')}
          required
          value={values.name}
          onChange={(e) => {
            setValues({ ...values, name: e.currentTarget.value });
            setTouched(true);
          }}
          error={touched ? errors.name : undefined}
          maxLength={100}
        />
        <Textarea
          label={t('brands.description')}
          value={values.description}
          onChange={(e) => setValues({ ...values, description: e.currentTarget.value })}
          error={touched ? errors.description : undefined}
          maxLength={1000}
          autosize
          minRows={2}
        />
        <TextInput
          label={t('brands.logo')}
          placeholder="https://"
          value={values.logo}
          onChange={(e) => {
            setValues({ ...values, logo: e.currentTarget.value });
            setTouched(true);
          }}
          error={touched ? errors.logo : undefined}
        />
      </DialogForm>
    </Modal>
  );
}

/** The Brands list: create, edit, delete with CREATE_BRAND, UPDATE_BRAND, DELETE_BRAND. */
export function BrandsPanel({ headingOrder = 3 }: { headingOrder?: 2 | 3 }) {
  const { t } = useTranslation(['admin-dashboard', 'admin']);
  const perms = permissionsOf(useSession());
  const brands = useBrands();
  const del = useDeleteBrand();
  const [draft, setDraft] = useState<Draft | null>(null);
  const removal = useConfirmedDelete((b: Brand) => del.mutateAsync(b.id));
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="brands-title">
      <Stack>
        <Group justify="space-between">
          <Title order={headingOrder} id="brands-title">
            {t('brands.title')}
          </Title>
          {perms.has('CREATE_BRAND') && <Button onClick={() => setDraft({ name: '', description: '', logo: '' })}>{t('brands.add')}</Button>}
        </Group>
        {brands.isPending && <Loader size="sm" aria-label={t('admin:common.loading')} />}
        {brands.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
        {brands.isSuccess && brands.data.length === 0 && <Text c="dimmed">{t('brands.none')}</Text>}
        <Stack gap="xs" role="list" aria-label={t('brands.title')}>
          {(brands.data ?? []).map((b) => (
            <Group key={b.id} justify="space-between" wrap="nowrap" role="listitem" gap="xs">
              <Group wrap="nowrap" gap="sm" style={{ minWidth: 0 }}>
                <Avatar src={b.logo} alt="" radius="sm">
                  {b.name.slice(0, 1)}
                </Avatar>
                <div style={{ minWidth: 0 }}>
                  <Text fw={600} truncate>
                    {b.name}
                  </Text>
                  {b.description && (
                    <Text size="xs" c="dimmed" lineClamp={2}>
                      {b.description}
                    </Text>
                  )}
                </div>
              </Group>
              <Group gap={2} wrap="nowrap">
                {perms.has('UPDATE_BRAND') && (
                  <ActionIcon variant="subtle" aria-label={t('brands.editNamed', { name: b.name })} onClick={() => setDraft({ id: b.id, name: b.name, description: b.description, logo: b.logo ?? '' })}>
                    ✎
                  </ActionIcon>
                )}
                {perms.has('DELETE_BRAND') && (
                  <ActionIcon variant="subtle" color="red" aria-label={t('brands.deleteNamed', { name: b.name })} onClick={() => removal.ask(b)}>
                    ✕
                  </ActionIcon>
                )}
              </Group>
            </Group>
          ))}
        </Stack>
      </Stack>
      <BrandDialog draft={draft} onClose={() => setDraft(null)} />
      <ConfirmDelete name={removal.deleting?.name ?? ''} opened={removal.deleting !== null} onConfirm={removal.confirm} onClose={removal.cancel} />
    </Card>
  );
}
