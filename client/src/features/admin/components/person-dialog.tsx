import { Chip, Group, Input, Loader, Modal, Select, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emailSchema, mobileSchema } from '../../../../../sync-protocol/src/common';
import { PERSON_STATUSES, type PersonView } from '../../../../../sync-protocol/src/person';
import { notifySuccess } from '../../../lib/notify';
import { translateServerMessage } from '../../../lib/server-messages';
import { usePermissions } from '../api/get-permissions';
import { useRoles } from '../api/get-roles';
import { useSavePerson } from '../api/save-person';
import { useUpdatePersonPermissions } from '../api/update-person-permissions';
import { capitaliseWords, withIndiaPrefix } from '../lib/generate-password';
import { sameSet } from '../lib/permission-moves';
import { GeneratedPasswordInput } from './generated-password-input';
import { DialogForm } from './dialog-form';
import { PermissionPicker } from './permission-picker';

type Values = { n: string; m: string; e: string; password: string; s: string; r: string };

const fromPerson = (p: PersonView | null): Values => ({
  n: p?.n ?? '',
  m: p?.m ?? '',
  e: p?.e ?? '',
  password: '',
  s: p?.s ?? 'ACTIVE',
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

/**
 * Admin: Person add/edit dialog (spec §2, §4 Person save, §5 Person (admin)). Creating gives
 * "<name> created successfully. Assign role and permissions" and the dialog carries on editing
 * that person, so that role and permissions can be assigned at once. Choosing a role copies its
 * permissions into the picker; the person's own permissions can then be granted or revoked.
 */
export function PersonDialog({ opened, person, onClose }: { opened: boolean; person: PersonView | null; onClose: () => void }) {
  const { t } = useTranslation(['admin-users', 'admin']);
  const small = useMediaQuery('(max-width: 600px)');
  const roles = useRoles();
  const permissions = usePermissions();
  const save = useSavePerson();
  const savePerms = useUpdatePersonPermissions();
  const [current, setCurrent] = useState<PersonView | null>(person);
  const [values, setValues] = useState<Values>(fromPerson(person));
  const [granted, setGranted] = useState<string[]>(person?.permissions.map((p) => p.permission) ?? []);
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [permError, setPermError] = useState<string | null>(null);
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
  const set = (k: keyof Values, v: string) => {
    setValues((s) => ({ ...s, [k]: v }));
    setTouched((s) => ({ ...s, [k]: true }));
  };
  const chooseRole = (id: string) => {
    set('r', id);
    // Spec §4: choosing a role copies its permissions to the person.
    const role = roles.data?.find((r) => r.id === id);
    if (role) setGranted(role.permissions.map((p) => p.permission));
  };
  const shownError = (k: keyof Values) => (touched[k] ? errors[k] : undefined);

  const submit = async () => {
    setTouched({ n: true, m: true, e: true, password: true });
    if (!valid) return;
    setPermError(null);
    const input = {
      id: current?.id,
      n: values.n.trim(),
      m: withIndiaPrefix(values.m),
      e: values.e.trim(),
      s: values.s,
      r: values.r || undefined,
      password: current ? undefined : values.password || undefined,
    };
    let saved;
    try {
      saved = await save.mutateAsync(input);
    } catch {
      return; // api() notified the server's message (spec §8 Person save failure).
    }
    notifySuccess(translateServerMessage(saved.msg));
    if (!current) {
      // Created: stay open on the new person to assign role and permissions.
      setCurrent(saved.data);
      setValues(fromPerson(saved.data));
      setGranted(saved.data.permissions.map((p) => p.permission));
      return;
    }
    const serverNow = saved.data.permissions.map((p) => p.permission);
    if (!sameSet(serverNow, granted)) {
      try {
        await savePerms.mutateAsync({ id: current.id, permissions: granted });
      } catch {
        setPermError(t('messages.permissionFailed'));
        return;
      }
    }
    onClose();
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
        error={permError}
        saveDisabled={!valid}
        saving={save.isPending || savePerms.isPending}
      >
          <TextInput
            label={t('form.name')}
            required
            value={values.n}
            onChange={(e) => set('n', capitaliseWords(e.currentTarget.value))}
            error={shownError('n')}
            maxLength={100}
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
            maxLength={20}
          />
          <TextInput label={t('form.email')} type="email" value={values.e} onChange={(e) => set('e', e.currentTarget.value)} error={shownError('e')} maxLength={254} />
          {!current && (
            <GeneratedPasswordInput
              label={t('form.password')}
              value={values.password}
              onChange={(v) => set('password', v)}
              error={shownError('password')}
            />
          )}
          <Select
            label={t('form.status')}
            data={PERSON_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            value={values.s}
            onChange={(v) => v && set('s', v)}
            allowDeselect={false}
          />
          <Input.Wrapper label={t('form.role')}>
            {roles.isPending ? (
              <Loader size="xs" />
            ) : (
              <Chip.Group multiple={false} value={values.r} onChange={(v) => chooseRole(v)}>
                <Group gap={6} mt={4} role="radiogroup" aria-label={t('form.role')}>
                  {(roles.data ?? []).map((r) => (
                    <Chip key={r.id} value={r.id} size="sm">
                      {r.name}
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
