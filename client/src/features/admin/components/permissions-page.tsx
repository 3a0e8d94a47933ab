import { ActionIcon, Alert, Button, Card, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Permission } from '@pm/protocol/permission';
import { useSession } from '@/hooks/use-session';
import { permissionsOf } from '@/lib/session';
import { useDeletePermission } from '../api/delete-permission';
import { usePermissions } from '../api/get-permissions';
import { useConfirmedDelete } from '../hooks/use-confirmed-delete';
import { ConfirmDelete } from './confirm-delete';
import { PermissionDialog, type PermissionDraft } from './permission-dialog';
import { permissionDescription } from '@/lib/built-in-labels';

/** Admin: Permissions: a filterable list, the description as tooltip, add/edit/delete by permission. */
export default function PermissionsPage() {
  const { t } = useTranslation(['admin-access', 'admin']);
  const perms = permissionsOf(useSession());
  const list = usePermissions();
  const del = useDeletePermission();
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<PermissionDraft | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const removal = useConfirmedDelete((p: Permission) => del.mutateAsync(p.id));

  const f = filter.trim().toUpperCase();
  const shown = (list.data ?? []).filter((p) => !f || p.permission.includes(f) || permissionDescription(p).toUpperCase().includes(f));

  const open = (p: PermissionDraft) => {
    setEditing(p);
    setDialogOpen(true);
  };

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('permissions.title')}</Title>
        {perms.has('CREATE_PERMISSION') && <Button onClick={() => open({ permission: '', description: '' })}>{t('permissions.add')}</Button>}
      </Group>
      <TextInput label={t('permissions.filter')} value={filter} onChange={(e) => setFilter(e.currentTarget.value)} maw={360} />
      {list.isPending && <Loader aria-label={t('admin:common.loading')} />}
      {list.isError && (
        <Alert color="red">
          {t('admin:common.loadFailed')}{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => void list.refetch()}>
            {t('admin:common.retry')}
          </Button>
        </Alert>
      )}
      {list.isSuccess && shown.length === 0 && <Text c="dimmed">{t('admin:common.noData')}</Text>}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" role="list" aria-label={t('permissions.title')}>
        {shown.map((p) => (
          <Card key={p.id} withBorder padding="xs" role="listitem">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Tooltip label={permissionDescription(p) || t('permissions.noDescription')} multiline maw={280} withinPortal>
                <Text fw={600} size="sm" style={{ wordBreak: 'break-word' }} tabIndex={0}>
                  {p.permission}
                </Text>
              </Tooltip>
              <Group gap={4} wrap="nowrap">
                {perms.has('UPDATE_PERMISSION') && (
                  <ActionIcon variant="subtle" aria-label={t('permissions.editNamed', { name: p.permission })} onClick={() => open(p)}>
                    ✎
                  </ActionIcon>
                )}
                {perms.has('DELETE_PERMISSION') && (
                  <ActionIcon variant="subtle" color="red" aria-label={t('permissions.deleteNamed', { name: p.permission })} onClick={() => removal.ask(p)}>
                    ✕
                  </ActionIcon>
                )}
              </Group>
            </Group>
            {p.description && (
              <Text size="xs" c="dimmed" lineClamp={2}>
                {permissionDescription(p)}
              </Text>
            )}
          </Card>
        ))}
      </SimpleGrid>
      <PermissionDialog opened={dialogOpen} initial={editing} onClose={() => setDialogOpen(false)} />
      <ConfirmDelete name={removal.deleting?.permission ?? ''} opened={removal.deleting !== null} busy={del.isPending} onConfirm={removal.confirm} onClose={removal.cancel} />
    </Stack>
  );
}
