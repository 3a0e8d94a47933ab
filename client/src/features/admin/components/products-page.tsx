import { ActionIcon, Alert, Badge, Button, Group, Loader, Modal, NumberInput, Paper, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { productCreateSchema, type ProductView } from '@pm/protocol/plan';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { useDeleteProduct } from '../api/delete-product';
import { useProducts } from '../api/get-products';
import { type ProductInput, useSaveProduct } from '../api/save-product';
import { rupees } from '../lib/report-range';
import { useConfirmedDelete } from '../hooks/use-confirmed-delete';
import { ConfirmDelete } from './confirm-delete';
import { DialogForm } from './dialog-form';

type Bi = { en: string; hi: string };
const EMPTY: ProductInput = { code: '', name: { en: '', hi: '' }, total: 1, approx: { en: '', hi: '' }, contents: [{ en: '', hi: '' }], active: true, order: 0 };

type ErrorKey = 'products.codeInvalid' | 'products.priceInvalid' | 'products.required' | 'products.contentsNeeded';

/** Field errors of a product draft, checked with the server's schema, keyed by path ('name.hi', 'contents.0.en', 'total'). */
export function productErrors(p: ProductInput): Record<string, ErrorKey> {
  const { id: _id, ...body } = p;
  const r = productCreateSchema.safeParse(body);
  const out: Record<string, ErrorKey> = {};
  if (!r.success) {
    for (const i of r.error.issues) {
      const path = i.path.join('.');
      out[path] ??= path === 'code' ? 'products.codeInvalid' : path === 'total' ? 'products.priceInvalid' : path === 'contents' ? 'products.contentsNeeded' : 'products.required';
    }
  }
  return out;
}

function BiInput({ label, value, onChange, errors, path }: { label: string; value: Bi; onChange: (v: Bi) => void; errors: Record<string, string>; path: string }) {
  const { t } = useTranslation('admin');
  return (
    <Group grow wrap="wrap" gap="xs" align="flex-start">
      <TextInput label={`${label} (${t('common.english')})`} value={value.en} onChange={(e) => onChange({ ...value, en: e.currentTarget.value })} error={errors[`${path}.en`]} required miw={200} />
      <TextInput label={`${label} (${t('common.hindi')})`} lang="hi" value={value.hi} onChange={(e) => onChange({ ...value, hi: e.currentTarget.value })} error={errors[`${path}.hi`]} required miw={200} />
    </Group>
  );
}

function ProductDialog({ draft, onClose }: { draft: ProductInput | null; onClose: () => void }) {
  const { t } = useTranslation(['admin-shop', 'admin']);
  const small = useMediaQuery('(max-width: 600px)');
  const save = useSaveProduct();
  const [v, setV] = useState<ProductInput>(draft ?? EMPTY);
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState(draft);
  if (shownFor !== draft) {
    setShownFor(draft);
    setV(draft ?? EMPTY);
    setTouched(false);
    setError(null);
  }
  const errors: Record<string, string> = touched ? Object.fromEntries(Object.entries(productErrors(v)).map(([k, key]) => [k, t(key)])) : {};
  const valid = Object.keys(productErrors(v)).length === 0;
  const submit = async () => {
    setTouched(true);
    if (!valid) return;
    setError(null);
    try {
      const r = await save.mutateAsync({ ...v, code: v.code.trim().toUpperCase() });
      notifySuccess(translateServerMessage(r.msg));
      onClose();
    } catch (e) {
      setError(e instanceof ApiError ? e.msg : t('admin:common.loadFailed'));
    }
  };
  const set = (patch: Partial<ProductInput>) => {
    setV((s) => ({ ...s, ...patch }));
    setTouched(true);
  };
  return (
    <Modal opened={draft !== null} onClose={onClose} title={v.id ? t('products.editTitle') : t('products.addTitle')} size="lg" fullScreen={small}>
      <DialogForm onSubmit={() => void submit()} onCancel={onClose} error={error} saveDisabled={touched && !valid} saving={save.isPending}>
          <Group grow wrap="wrap" align="flex-start">
            <TextInput label={t('products.code')} required value={v.code} onChange={(e) => set({ code: e.currentTarget.value.toUpperCase() })} error={errors.code} miw={180} />
            <NumberInput label={t('products.price')} required min={1} allowDecimal={false} value={v.total} onChange={(n) => set({ total: typeof n === 'number' ? n : Number.NaN })} error={errors.total} miw={140} />
            <NumberInput label={t('products.order')} min={0} allowDecimal={false} value={v.order} onChange={(n) => set({ order: typeof n === 'number' ? n : 0 })} miw={100} />
          </Group>
          <BiInput label={t('products.name')} value={v.name} onChange={(name) => set({ name })} errors={errors} path="name" />
          <BiInput label={t('products.approx')} value={v.approx} onChange={(approx) => set({ approx })} errors={errors} path="approx" />
          <Text fw={600} size="sm">
            {t('products.contents')}
          </Text>
          {errors.contents && (
            <Text c="red" size="sm">
              {errors.contents}
            </Text>
          )}
          {v.contents.map((c, i) => (
            <Paper key={i} withBorder p="xs">
              <BiInput label={t('products.line', { n: i + 1 })} value={c} onChange={(line) => set({ contents: v.contents.map((x, j) => (j === i ? line : x)) })} errors={errors} path={`contents.${i}`} />
              {v.contents.length > 1 && (
                <Button variant="subtle" color="red" size="compact-xs" mt={4} onClick={() => set({ contents: v.contents.filter((_, j) => j !== i) })}>
                  {t('products.removeLine', { n: i + 1 })}
                </Button>
              )}
            </Paper>
          ))}
          {v.contents.length < 20 && (
            <Button variant="light" size="xs" onClick={() => set({ contents: [...v.contents, { en: '', hi: '' }] })} w="fit-content">
              {t('products.addLine')}
            </Button>
          )}
          <Switch label={t('products.active')} checked={v.active} onChange={(e) => set({ active: e.currentTarget.checked })} />
      </DialogForm>
    </Modal>
  );
}

/** Admin: Products — the plans learners buy (docs/admin.md: product = the plans; changes are logged). */
export default function ProductsPage() {
  const { t, i18n } = useTranslation(['admin-shop', 'admin']);
  const lang = i18n.language;
  const products = useProducts();
  const del = useDeleteProduct();
  const [draft, setDraft] = useState<ProductInput | null>(null);
  // A plan with orders is refused by the server with its message (api() shows it).
  const removal = useConfirmedDelete((p: ProductView) => del.mutateAsync(p.id));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('products.title')}</Title>
        <Button onClick={() => setDraft({ ...EMPTY })}>{t('products.add')}</Button>
      </Group>
      <Text c="dimmed" size="sm">
        {t('products.intro')}
      </Text>
      {products.isPending && <Loader aria-label={t('admin:common.loading')} />}
      {products.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      <Table.ScrollContainer minWidth={620}>
        <Table striped aria-label={t('products.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('products.code')}</Table.Th>
              <Table.Th>{t('products.name')}</Table.Th>
              <Table.Th ta="right">{t('products.price')}</Table.Th>
              <Table.Th>{t('products.active')}</Table.Th>
              <Table.Th ta="right">{t('products.orders')}</Table.Th>
              <Table.Th>{t('admin:common.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(products.data ?? []).map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td>{p.code}</Table.Td>
                <Table.Td>{lang === 'hi' ? p.name.hi : p.name.en}</Table.Td>
                <Table.Td ta="right">{rupees(p.total, lang)}</Table.Td>
                <Table.Td>
                  <Badge color={p.active ? 'green' : 'gray'} variant="light">
                    {p.active ? t('admin:common.active') : t('admin:common.inactive')}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">{p.orders}</Table.Td>
                <Table.Td>
                  <Group gap={2} wrap="nowrap">
                    <ActionIcon variant="subtle" aria-label={t('products.editNamed', { name: lang === 'hi' ? p.name.hi : p.name.en })} onClick={() => setDraft({ id: p.id, code: p.code, name: p.name, total: p.total, approx: p.approx, contents: p.contents, active: p.active, order: p.order })}>
                      ✎
                    </ActionIcon>
                    <ActionIcon variant="subtle" color="red" aria-label={t('products.deleteNamed', { name: lang === 'hi' ? p.name.hi : p.name.en })} onClick={() => removal.ask(p)}>
                      ✕
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ProductDialog draft={draft} onClose={() => setDraft(null)} />
      <ConfirmDelete name={removal.deleting ? (lang === 'hi' ? removal.deleting.name.hi : removal.deleting.name.en) : ''} opened={removal.deleting !== null} onConfirm={removal.confirm} onClose={removal.cancel} />
    </Stack>
  );
}
