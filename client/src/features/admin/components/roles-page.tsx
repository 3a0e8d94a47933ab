import { ActionIcon, Alert, Button, Grid, Group, List, Loader, Paper, Stack, Text, Textarea, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roleCreateSchema } from '@pm/protocol/role';
import { useSession } from '@/hooks/use-session';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { permissionsOf } from '@/lib/session';
import { useDeleteRole } from '../api/delete-role';
import { usePermissions } from '../api/get-permissions';
import { type RoleView, useRoles } from '../api/get-roles';
import { useSaveRole } from '../api/save-role';
import { useUpdateRolePermissions } from '../api/update-role-permissions';
import { useLeaveGuard } from '@/hooks/use-leave-guard';
import { sameSet } from '../lib/permission-moves';
import { ConfirmDelete, ConfirmDiscard } from './confirm-delete';
import { PermissionPicker } from './permission-picker';
import { roleName } from '@/lib/built-in-labels';

type Draft = { name: string; description: string; permissions: string[] };
const EMPTY: Draft = { name: '', description: '', permissions: [] };

/**
 * Admin: Roles (docs/admin.md): the new-role panel, the list of roles with select and
 * delete, and the two-list permission picker. Once a role is selected, saving updates it; with
 * none selected, saving adds one; after success the form resets and the selection clears.
 */
export default function RolesPage() {
  const { t } = useTranslation(['admin-access', 'admin']);
  const perms = permissionsOf(useSession());
  const roles = useRoles();
  const permissions = usePermissions();
  const save = useSaveRole();
  const savePerms = useUpdateRolePermissions();
  const del = useDeleteRole();

  const [selected, setSelected] = useState<RoleView | null>(null);
  const [baseline, setBaseline] = useState<Draft>(EMPTY);
  const [granted, setGranted] = useState<string[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [deleting, setDeleting] = useState<RoleView | null>(null);
  const [pendingAction, setPendingAction] = useState<(() => void) | null>(null);

  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', description: '' },
    validateInputOnChange: true,
    validate: {
      name: (v) => {
        const r = roleCreateSchema.shape.name.safeParse(v);
        return r.success ? null : translateServerMessage(r.error.issues[0]?.message ?? '');
      },
    },
  });

  const dirty =
    form.values.name.trim() !== baseline.name || form.values.description.trim() !== baseline.description || !sameSet(granted, baseline.permissions);
  const leave = useLeaveGuard(dirty);
  const mayWrite = selected ? perms.has('UPDATE_ROLE') : perms.has('CREATE_ROLE');

  const load = (role: RoleView | null) => {
    const d = role ? { name: role.name, description: role.description, permissions: role.permissions.map((p) => p.permission) } : EMPTY;
    setSelected(role);
    setBaseline(d);
    setGranted(d.permissions);
    form.setValues({ name: d.name, description: d.description });
    form.resetDirty();
    form.clearErrors();
    setErrors([]);
  };
  /** Runs `action`, first asking 'Discard Changes?' when the form holds unsaved changes. */
  const guarded = (action: () => void) => {
    if (dirty) setPendingAction(() => action);
    else action();
  };

  const submit = form.onSubmit(async (v) => {
    setErrors([]);
    const name = v.name.trim().toUpperCase();
    const description = v.description.trim();
    try {
      const onlyPermissions = selected && name === baseline.name && description === baseline.description;
      const r =
        selected && onlyPermissions
          ? await savePerms.mutateAsync({ id: selected.id, permissions: granted })
          : await save.mutateAsync({ id: selected?.id, name, description, permissions: granted });
      notifySuccess(translateServerMessage(r.msg));
      load(null);
    } catch (e) {
      setErrors([e instanceof ApiError && e.msg ? e.msg : t('roles.someError')]);
    }
  });

  const confirmDelete = async () => {
    const role = deleting;
    setDeleting(null);
    if (!role) return;
    setErrors([]);
    try {
      const r = await del.mutateAsync(role.id);
      notifySuccess(translateServerMessage(r.msg));
      if (selected?.id === role.id) load(null);
    } catch (e) {
      setErrors([e instanceof ApiError && e.msg ? e.msg : t('roles.someError')]);
    }
  };

  return (
    <Stack>
      <Title order={2}>{t('roles.title')}</Title>
      {errors.length > 0 && (
        <Alert color="red" role="alert" title={t('roles.failed')}>
          <List size="sm">
            {errors.map((e) => (
              <List.Item key={e}>{e}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack>
            <Paper withBorder p="sm" component="section" aria-labelledby="role-form-title">
              <form onSubmit={submit} noValidate>
                <Stack gap="xs">
                  <Title order={4} id="role-form-title">
                    {selected ? t('roles.editing', { name: roleName(selected) }) : t('roles.newRole')}
                  </Title>
                  <TextInput
                    label={t('roles.name')}
                    required
                    {...form.getInputProps('name')}
                    onChange={(e) => form.setFieldValue('name', e.currentTarget.value.toUpperCase())}
                  />
                  <Textarea label={t('roles.description')} autosize minRows={2} maxLength={500} {...form.getInputProps('description')} />
                  <Group>
                    <Button type="submit" disabled={!mayWrite || !form.isValid() || (selected !== null && !dirty)} loading={save.isPending || savePerms.isPending}>
                      {t('admin:common.save')}
                    </Button>
                    <Button variant="default" onClick={() => guarded(() => load(null))}>
                      {t('admin:common.reset')}
                    </Button>
                  </Group>
                </Stack>
              </form>
            </Paper>
            <Paper withBorder p="sm" component="section" aria-labelledby="roles-list-title">
              <Title order={4} id="roles-list-title" mb="xs">
                {t('roles.list')}
              </Title>
              {roles.isPending && <Loader size="sm" aria-label={t('admin:common.loading')} />}
              {roles.isError && <Text c="red">{t('admin:common.loadFailed')}</Text>}
              <Stack gap={4} role="list">
                {(roles.data ?? []).map((r) => (
                  <Group key={r.id} justify="space-between" wrap="nowrap" role="listitem" gap="xs">
                    <UnstyledButton
                      onClick={() => guarded(() => load(r))}
                      aria-label={t('roles.select', { name: roleName(r) })}
                      aria-pressed={selected?.id === r.id}
                      style={{ flex: 1, minWidth: 0 }}
                      px="xs"
                      py={4}
                      bg={selected?.id === r.id ? 'indigo.0' : undefined}
                    >
                      <Text size="sm" fw={600} truncate>
                        {roleName(r)}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {t('roles.permissionCount', { count: r.permissions.length })}
                      </Text>
                    </UnstyledButton>
                    {perms.has('DELETE_ROLE') && (
                      <ActionIcon variant="subtle" color="red" aria-label={t('roles.deleteNamed', { name: roleName(r) })} onClick={() => setDeleting(r)}>
                        ✕
                      </ActionIcon>
                    )}
                  </Group>
                ))}
              </Stack>
            </Paper>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder p="sm" component="section" aria-labelledby="role-permissions-title">
            <Title order={4} id="role-permissions-title" mb="xs">
              {selected ? t('roles.permissionsOf', { name: roleName(selected) }) : t('roles.permissionsOfNew')}
            </Title>
            {permissions.isPending ? (
              <Loader size="sm" aria-label={t('admin:common.loading')} />
            ) : (
              <PermissionPicker permissions={permissions.data ?? []} granted={granted} onChange={setGranted} disabled={!mayWrite} />
            )}
          </Paper>
        </Grid.Col>
      </Grid>
      <ConfirmDelete name={roleName(deleting)} opened={deleting !== null} busy={del.isPending} onConfirm={() => void confirmDelete()} onClose={() => setDeleting(null)} />
      <ConfirmDiscard
        opened={pendingAction !== null || leave.asking}
        onDiscard={() => {
          if (leave.asking) leave.discard();
          const a = pendingAction;
          setPendingAction(null);
          a?.();
        }}
        onClose={() => {
          leave.stay();
          setPendingAction(null);
        }}
      />
    </Stack>
  );
}
