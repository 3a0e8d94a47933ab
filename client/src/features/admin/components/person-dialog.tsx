import { Badge, Chip, Group, Input, Loader, Modal, Select, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emailSchema, mobileSchema } from '@pm/protocol/common';
import { PERSON_STATUSES, type PersonView } from '@pm/protocol/person';
import { notifySuccess } from '@/lib/notify';
import { ApiError } from '@/lib/api-client';
import { translateServerMessage } from '@/lib/server-messages';
import { permissionsQueryOptions } from '../api/get-permissions';
import { rolesQueryOptions } from '../api/get-roles';
import { useCreatePerson } from '../api/create-person';
import { useUpdatePerson } from '../api/update-person';
import { useUpdatePersonPermissions } from '../api/update-person-permissions';
import { capitaliseWords, withIndiaPrefix } from '../lib/generate-password';
import { sameSet } from '../lib/permission-moves';
import { GeneratedPasswordInput } from './generated-password-input';
import { DialogForm } from './dialog-form';
import { PermissionPicker } from './permission-picker';
import { roleName } from '@/lib/built-in-labels';

type Status = (typeof PERSON_STATUSES)[number];
type Values = { n: string; m: string; e: string; password: string; s: Status; r: string };

const isStatus = (s: string | null | undefined): s is Status => (PERSON_STATUSES as readonly string[]).includes(s ?? '');

const fromPerson = (p: PersonView | null): Values => ({
  n: p?.n ?? '',
  m: p?.m ?? '',
  e: p?.e ?? '',
  password: '',
  s: p && isStatus(p.s) ? p.s : 'ACTIVE',
  r: p?.r?.id ?? '',
});

/** Client-side checks with the server's own schemas; returns message keys or server texts. */
export function validatePerson(v: Values, t: (k: 'form.nameRequired' | 'form.mobileRequired' | 'form.mobileInvalid' | 'form.emailInvalid' | 'form.passwordMin') => string) {
  const errors: Partial<Record<keyof Values, string>> = {};
  if (!v.n.trim()) errors.n = t('form.nameRequired');
  if (!v.m.trim()) errors.m = t('form.mobileRequired');
  else if (!mobileSchema.safeParse(withIndiaPrefix(v.m)).success) errors.m = t('form.mobileInvalid');
  if (v.e.trim() && !emailSchema.safeParse(v.e.trim()).success) errors.e = t('form.emailInvalid');
  if (v.password && v.password.length < 4) errors.password = t('form.passwordMin');
  return errors;
}

/** The colour of a person's status badge (also on the Users cards). */
export const statusColor = (s: string) => (s === 'ACTIVE' ? 'green' : s === 'BLOCKED' ? 'red' : 'gray');

/**
 * Admin: Person add/edit dialog (docs/admin.md). Creating gives
 * "<name> created successfully. Assign role and permissions" and, following that message, the
 * dialog carries on editing the new person so that role and permissions can be assigned at once.
 * Choosing a role copies its permissions into the picker; the person's own permissions can then
 * be granted or revoked. An edit is PUT /Person, then, only if the permissions differ from what
 * the server now holds, PATCH /Person/updatePermissionCollection.
 */
export function PersonDialog({ opened, person, onClose }: { opened: boolean; person: PersonView | null; onClose: () => void }) {
  const { t } = useTranslation(['admin-users', 'admin']);
  const small = useMediaQuery('(max-width: 600px)');
  const create = useCreatePerson();
  const update = useUpdatePerson();
  const savePerms = useUpdatePersonPermissions();
  const [current, setCurrent] = useState<PersonView | null>(person);
  const [values, setValues] = useState<Values>(fromPerson(person));
  const [granted, setGranted] = useState<string[]>(person?.permissions.map((p) => p.permission) ?? []);
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  /** Set when PUT saved the details but the PATCH of permissions failed: the server's reason ('' if none). */
  const [permError, setPermError] = useState<{ reason: string } | null>(null);
  // The dialog stays mounted while closed (for its transition): fetch its lists only once it opens.
  const roles = useQuery({ ...rolesQueryOptions(), enabled: opened });
  const permissions = useQuery({ ...permissionsQueryOptions(), enabled: opened });
  // Reset the form whenever the dialog is (re)opened or given another person (render-time reset,
  // no effect: the first paint already shows the right values).
  const [shownFor, setShownFor] = useState<{ opened: boolean; person: PersonView | null }>({ opened: false, person: null });
  if (shownFor.opened !== opened || shownFor.person !== person) {
    setShownFor({ opened, person });
    setCurrent(person);
    setValues(fromPerson(person));
    setGranted(person?.permissions.map((p) => p.permission) ?? []);
    setTouched({});
    setPermError(null);
  }

  const errors = validatePerson(values, t);
  const valid = Object.keys(errors).length === 0;
  const set = <K extends keyof Values>(k: K, v: Values[K]) => {
    setValues((s) => ({ ...s, [k]: v }));
    setTouched((s) => ({ ...s, [k]: true }));
  };
  const chooseRole = (id: string) => {
    set('r', id);
    // Choosing a role copies its permissions to the person.
    const role = roles.data?.find((r) => r.id === id);
    if (role) setGranted(role.permissions.map((p) => p.permission));
  };
  const shownError = (k: keyof Values) => (touched[k] ? errors[k] : undefined);
  const showPerson = (p: PersonView) => {
    setCurrent(p);
    setValues(fromPerson(p));
    setGranted(p.permissions.map((x) => x.permission));
    setTouched({});
  };

  const createNew = async () => {
    let saved;
    try {
      saved = await create.mutateAsync({
        n: values.n.trim(),
        m: withIndiaPrefix(values.m),
        e: values.e.trim(),
        s: values.s,
        ...(values.r && { r: values.r }),
        ...(values.password && { password: values.password }),
      });
    } catch {
      return; // api() notified the server's message.
    }
    notifySuccess(translateServerMessage(saved.msg));
    // "Assign role and permissions": stay open on the new person, now in edit mode.
    showPerson(saved.data);
  };

  const saveEdit = async (id: string) => {
    let saved;
    try {
      saved = await update.mutateAsync({
        id,
        n: values.n.trim(),
        m: withIndiaPrefix(values.m),
        e: values.e.trim(),
        s: values.s,
        ...(values.r && { r: values.r }),
      });
    } catch {
      return; // api() notified the server's message.
    }
    notifySuccess(translateServerMessage(saved.msg));
    setCurrent(saved.data);
    // The server copies a newly chosen role's permissions; send ours only if they differ.
    const serverNow = saved.data.permissions.map((p) => p.permission);
    if (!sameSet(serverNow, granted)) {
      try {
        await savePerms.mutateAsync({ id, permissions: granted });
      } catch (e) {
        setPermError({ reason: e instanceof ApiError && e.msg ? translateServerMessage(e.msg) : '' });
        return;
      }
    }
    onClose();
  };

  const submit = async () => {
    setTouched({ n: true, m: true, e: true, password: true });
    if (!valid) return;
    setPermError(null);
    if (current) await saveEdit(current.id);
    else await createNew();
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={current ? t('dialog.editTitle', { name: current.n }) : t('dialog.addTitle')}
      size={current ? 'xl' : 'md'}
      fullScreen={small}
      centered
    >
      <DialogForm
        onSubmit={() => void submit()}
        onCancel={onClose}
        cancelLabel={t('admin:common.close')}
        error={
          permError && (
            <>
              <Text size="sm" fw={600}>
                {t('messages.permissionFailed')}
              </Text>
              {permError.reason && <Text size="sm">{permError.reason}</Text>}
            </>
          )
        }
        saveDisabled={!valid}
        saving={create.isPending || update.isPending || savePerms.isPending}
      >
        {current?.s && (
          // The status label, shown when the person has one.
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('form.status')}:
            </Text>
            <Badge variant="dot" color={statusColor(current.s)} data-testid="person-status">
              {t(`status.${current.s as 'ACTIVE'}`, { defaultValue: current.s })}
            </Badge>
          </Group>
        )}
        <TextInput
          label={t('form.name')}
          required
          value={values.n}
          onChange={(e) => set('n', capitaliseWords(e.currentTarget.value))}
          error={shownError('n')}
          maxLength={100}
          autoComplete="off"
          data-autofocus
        />
        <TextInput
          label={t('form.mobile')}
          description={t('form.mobileHint')}
          required
          value={values.m}
          onChange={(e) => set('m', e.currentTarget.value)}
          error={shownError('m')}
          inputMode="tel"
          autoComplete="off"
          maxLength={20}
        />
        <TextInput
          label={t('form.email')}
          type="email"
          value={values.e}
          onChange={(e) => set('e', e.currentTarget.value)}
          error={shownError('e')}
          autoComplete="off"
          maxLength={254}
        />
        {!current && (
          // A person's password is changed later through the reset-password dialog.
          <GeneratedPasswordInput label={t('form.password')} value={values.password} onChange={(v) => set('password', v)} error={shownError('password')} />
        )}
        <Select
          label={t('form.status')}
          data={PERSON_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={values.s}
          onChange={(v) => isStatus(v) && set('s', v)}
          allowDeselect={false}
        />
        <Input.Wrapper label={t('form.role')}>
          {roles.isPending ? (
            <Loader size="xs" />
          ) : (
            <Chip.Group multiple={false} value={values.r} onChange={chooseRole}>
              <Group gap={6} mt={4} role="radiogroup" aria-label={t('form.role')}>
                {(roles.data ?? []).map((r) => (
                  <Chip key={r.id} value={r.id} size="sm">
                    {roleName(r)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          )}
        </Input.Wrapper>
        {current && (
          <Input.Wrapper label={t('form.permissions')}>
            {permissions.isPending ? <Loader size="xs" /> : <PermissionPicker permissions={permissions.data ?? []} granted={granted} onChange={setGranted} />}
          </Input.Wrapper>
        )}
      </DialogForm>
    </Modal>
  );
}
