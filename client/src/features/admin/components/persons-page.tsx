import { ActionIcon, Alert, Badge, Button, Card, Drawer, Group, Loader, Pagination, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PersonView } from '../../../../../sync-protocol/src/person';
import { useSession } from '../../../hooks/use-session';
import { permissionsOf } from '../../../lib/session';
import { PERSON_PAGE_SIZE, usePersonSearch } from '../api/search-persons';
import { PersonDialog } from './person-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';

/** Spec §5: the person search begins only after more than 3 characters. */
export const MIN_SEARCH_CHARS = 4;

/** What the grid asks the server for: with 3 characters or fewer, everyone (first page), so the grid is never empty. */
export function searchTerm(input: string): string {
  const q = input.trim();
  return q.length >= MIN_SEARCH_CHARS ? q : '';
}

const statusColor = (s: string) => (s === 'ACTIVE' ? 'green' : s === 'BLOCKED' ? 'red' : 'gray');

/** Admin: Users (spec §2): grid search by name, mobile or e-mail, cards, add, edit, reset password and a detail view. */
export default function PersonsPage() {
  const { t } = useTranslation(['admin-users', 'admin']);
  const perms = permissionsOf(useSession());
  const [input, setInput] = useState('');
  const [debounced] = useDebouncedValue(searchTerm(input), 300);
  const [page, setPage] = useState(1);
  const [query, setQuery] = useState(debounced);
  if (query !== debounced) {
    setQuery(debounced);
    setPage(1);
  }
  const result = usePersonSearch(debounced, (page - 1) * PERSON_PAGE_SIZE);
  const [editing, setEditing] = useState<PersonView | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [resetting, setResetting] = useState<PersonView | null>(null);
  const [detail, setDetail] = useState<PersonView | null>(null);
  const pages = Math.max(1, Math.ceil((result.data?.count ?? 0) / PERSON_PAGE_SIZE));
  const short = input.trim().length > 0 && input.trim().length < MIN_SEARCH_CHARS;

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('title')}</Title>
        {perms.has('CREATE_PERSON') && (
          <Button
            onClick={() => {
              setEditing(null);
              setDialogOpen(true);
            }}
          >
            {t('addNew')}
          </Button>
        )}
      </Group>
      <TextInput
        label={t('search.label')}
        description={short ? t('search.tooShort') : t('search.hint')}
        value={input}
        onChange={(e) => setInput(e.currentTarget.value)}
        maw={420}
        type="search"
        rightSection={result.isFetching ? <Loader size="xs" /> : null}
      />
      {result.isError && <Alert color="red">{t('admin:common.loadFailed')}</Alert>}
      {result.isSuccess && result.data.data.length === 0 && <Text c="dimmed">{t('search.none')}</Text>}
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="sm" role="list" aria-label={t('title')}>
        {(result.data?.data ?? []).map((p) => (
          <Card key={p.id} withBorder padding="sm" role="listitem" aria-label={p.n}>
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              <Stack gap={2} style={{ minWidth: 0, cursor: 'pointer' }} onClick={() => setDetail(p)}>
                <Text fw={600} truncate>
                  {p.n}
                </Text>
                <Text size="sm" c="dimmed" truncate>
                  {p.e ?? t('noEmail')}
                </Text>
                <Text size="sm">{p.m}</Text>
              </Stack>
              <Group gap={2} wrap="nowrap">
                {perms.has('UPDATE_PERSON') && (
                  <Tooltip label={t('edit')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('editNamed', { name: p.n })}
                      onClick={() => {
                        setEditing(p);
                        setDialogOpen(true);
                      }}
                    >
                      ✎
                    </ActionIcon>
                  </Tooltip>
                )}
                {perms.has('UPDATE_PERSON') && (
                  <Tooltip label={t('reset.title')}>
                    <ActionIcon variant="subtle" color="orange" aria-label={t('resetNamed', { name: p.n })} onClick={() => setResetting(p)}>
                      ⚿
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            </Group>
            <Group gap={6} mt="xs">
              <Badge variant="light">{p.r?.name ?? t('noRole')}</Badge>
              <Badge variant="dot" color={statusColor(p.s)}>
                {t(`status.${p.s as 'ACTIVE'}`, { defaultValue: p.s })}
              </Badge>
              <Button variant="subtle" size="compact-xs" onClick={() => setDetail(p)} aria-label={t('detailsOf', { name: p.n })}>
                {t('details')}
              </Button>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}

      <Drawer opened={detail !== null} onClose={() => setDetail(null)} title={detail?.n} position="right">
        {detail && (
          <Stack gap="xs">
            <Text size="sm">
              <b>{t('form.mobile')}:</b> {detail.m}
            </Text>
            <Text size="sm">
              <b>{t('form.email')}:</b> {detail.e ?? t('noEmail')}
            </Text>
            <Text size="sm">
              <b>{t('form.role')}:</b> {detail.r?.name ?? t('noRole')}
            </Text>
            <Text size="sm">
              <b>{t('form.status')}:</b> {t(`status.${detail.s as 'ACTIVE'}`, { defaultValue: detail.s })}
            </Text>
            <Text size="sm" fw={700}>
              {t('form.permissions')}
            </Text>
            <Group gap={4}>
              {detail.permissions.length === 0 && <Text size="sm" c="dimmed">{t('noPermissions')}</Text>}
              {detail.permissions.map((p) => (
                <Badge key={p.permission} variant="outline" size="sm">
                  {p.permission}
                </Badge>
              ))}
            </Group>
          </Stack>
        )}
      </Drawer>
      <PersonDialog opened={dialogOpen} person={editing} onClose={() => setDialogOpen(false)} />
      <ResetPasswordDialog person={resetting} onClose={() => setResetting(null)} />
    </Stack>
  );
}
