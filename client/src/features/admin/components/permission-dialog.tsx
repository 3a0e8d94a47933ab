import { Alert, Button, Group, List, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { permissionCreateSchema } from '@pm/protocol/permission';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { useSavePermission } from '../api/save-permission';

export type PermissionDraft = { id?: string; permission: string; description: string };

/**
 * Add/edit a permission: name required and forced uppercase as typed,
 * description optional. An add failure shows an alert with the message; an update failure
 * is listed in the dialog.
 */
export function PermissionDialog({ opened, initial, onClose }: { opened: boolean; initial: PermissionDraft | null; onClose: () => void }) {
  const { t } = useTranslation(['admin-access', 'admin']);
  const save = useSavePermission();
  const [errors, setErrors] = useState<string[]>([]);
  const editing = Boolean(initial?.id);
  const form = useForm({
    mode: 'controlled',
    initialValues: { permission: initial?.permission ?? '', description: initial?.description ?? '' },
    validateInputOnChange: true,
    validate: {
      permission: (v) => {
        const r = permissionCreateSchema.shape.permission.safeParse(v);
        return r.success ? null : translateServerMessage(r.error.issues[0]?.message ?? '');
      },
    },
  });
  // A new initial value (another row, or Add) resets the form.
  const [shownFor, setShownFor] = useState<PermissionDraft | null>(null);
  if (opened && shownFor !== initial) {
    setShownFor(initial);
    form.setValues({ permission: initial?.permission ?? '', description: initial?.description ?? '' });
    form.resetDirty();
    form.clearErrors();
    setErrors([]);
  }

  const submit = form.onSubmit(async (v) => {
    setErrors([]);
    try {
      const r = await save.mutateAsync({ id: initial?.id, permission: v.permission.trim().toUpperCase(), description: v.description.trim() });
      notifySuccess(translateServerMessage(r.msg));
      onClose();
    } catch (e) {
      const msg = e instanceof ApiError ? e.msg : t('admin:common.loadFailed');
      setErrors([msg]);
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? t('permissions.editTitle') : t('permissions.addTitle')} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          {errors.length > 0 &&
            (editing ? (
              <Alert color="red" title={t('permissions.updateFailed')} role="alert">
                <List size="sm">
                  {errors.map((e) => (
                    <List.Item key={e}>{e}</List.Item>
                  ))}
                </List>
              </Alert>
            ) : (
              <Alert color="red" role="alert">
                {errors[0]}
              </Alert>
            ))}
          <TextInput
            label={t('permissions.name')}
            required
            data-autofocus
            {...form.getInputProps('permission')}
            onChange={(e) => form.setFieldValue('permission', e.currentTarget.value.toUpperCase())}
          />
          <Textarea label={t('permissions.description')} autosize minRows={2} maxLength={500} {...form.getInputProps('description')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin:common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!form.isValid()}>
              {t('admin:common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
