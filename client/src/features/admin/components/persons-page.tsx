import { ActionIcon, Alert, Badge, Button, Card, Drawer, Group, Loader, Pagination, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconKey, IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERSON_SEARCH_MIN_CHARS, type PersonView } from '@pm/protocol/person';
import { useSession } from '@/hooks/use-session';
import { permissionsOf } from '@/lib/session';
import { usePerson } from '../api/get-person';
import { PERSON_PAGE_SIZE, usePersonSearch } from '../api/search-persons';
import { PersonDialog, statusColor } from './person-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { roleName } from '@/lib/built-in-labels';

/** docs/glossary.md "Fixed values": the person search begins only after more than 3 characters (the server refuses fewer). */
export const MIN_SEARCH_CHARS = PERSON_SEARCH_MIN_CHARS;

/** How long typing must pause before the grid asks the server (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * What the grid asks the server for. With 3 characters or fewer there is no search (docs/glossary.md "Fixed values"), and
 * the grid shows the first page of everyone rather than a blank screen with a hint: an admin
 * opening Users usually wants to browse, and the list is paged by 30 anyway. The field's
 * description says that the search starts after more than 3 characters.
 */
export function searchTerm(input: string): string {
  const q = input.trim();
  return q.length >= MIN_SEARCH_CHARS ? q : '';
}

/** Admin: Users: grid search by name, mobile or e-mail, cards, add, edit, reset password and a detail view. */
export default function PersonsPage() {
  const { t } = useTranslation(['admin-users', 'admin']);
  const perms = permissionsOf(useSession());
  const [input, setInput] = useState('');
  const [debounced] = useDebouncedValue(searchTerm(input), SEARCH_DEBOUNCE_MS);
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
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                )}
                {perms.has('UPDATE_PERSON') && (
                  <Tooltip label={t('reset.title')}>
                    <ActionIcon variant="subtle" color="orange" aria-label={t('resetNamed', { name: p.n })} onClick={() => setResetting(p)}>
                      <IconKey size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            </Group>
            <Group gap={6} mt="xs">
              <Badge variant="light">{p.r ? roleName(p.r) : t('noRole')}</Badge>
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
      {pages > 1 && (
        // GET /Person/get pages by 30 (docs/glossary.md "Fixed values"); the page resets to 1 whenever the search changes.
        <Pagination
          total={pages}
          value={page}
          onChange={setPage}
          size="sm"
          getControlProps={(control) =>
            control === 'previous' ? { 'aria-label': t('admin:common.previous') } : control === 'next' ? { 'aria-label': t('admin:common.next') } : {}
          }
        />
      )}

      <PersonDetailDrawer person={detail} onClose={() => setDetail(null)} />
      <PersonDialog opened={dialogOpen} person={editing} onClose={() => setDialogOpen(false)} />
      <ResetPasswordDialog person={resetting} onClose={() => setResetting(null)} />
    </Stack>
  );
}

/**
 * The Users screen's detail view: mobile, e-mail, role and permissions. It opens at once with
 * the card's data and then shows the person as GET /Person/:id returns them now (the card may be
 * older than a change made in another tab or by another admin).
 */
function PersonDetailDrawer({ person, onClose }: { person: PersonView | null; onClose: () => void }) {
  const { t } = useTranslation(['admin-users', 'admin']);
  const fresh = usePerson(person?.id ?? null);
  const p = person && fresh.data?.id === person.id ? fresh.data : person;
  return (
    <Drawer opened={person !== null} onClose={onClose} title={p?.n} position="right" closeButtonProps={{ 'aria-label': t('admin:common.close') }}>
      {p && (
        <Stack gap="xs">
          <Text size="sm">
            <b>{t('form.mobile')}:</b> {p.m}
          </Text>
          <Text size="sm">
            <b>{t('form.email')}:</b> {p.e ?? t('noEmail')}
          </Text>
          <Text size="sm">
            <b>{t('form.role')}:</b> {p.r ? roleName(p.r) : t('noRole')}
          </Text>
          <Text size="sm">
            <b>{t('form.status')}:</b> {t(`status.${p.s as 'ACTIVE'}`, { defaultValue: p.s })}
          </Text>
          <Group gap="xs">
            <Text size="sm" fw={700}>
              {t('form.permissions')}
            </Text>
            {fresh.isFetching && <Loader size="xs" aria-label={t('admin:common.loading')} />}
          </Group>
          <Group gap={4} role="list" aria-label={t('form.permissions')}>
            {p.permissions.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('noPermissions')}
              </Text>
            )}
            {p.permissions.map((x) => (
              <Badge key={x.permission} variant="outline" size="sm" role="listitem">
                {x.permission}
              </Badge>
            ))}
          </Group>
        </Stack>
      )}
    </Drawer>
  );
}
