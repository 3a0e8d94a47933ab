import { Alert, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TAG_KEYS, type Tag } from '@pm/protocol/tag';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { type TagKey, usePatchTag, useTags } from '../api/tags';

/** The languages a tag is named in (docs/glossary.md: hi and en). */
export const TAG_LANGS = [
  { value: 'en', label: 'English' },
  { value: 'hi', label: 'हिन्दी' },
] as const;

/** The dialog's own checks, in the server's order (sync-protocol tagPatchSchema). */
export type TagDialogProblem = 'tagKeyMissing' | 'tagNameRequired' | 'tagExistingRequired';
export function tagDialogProblem(v: { key: string | null; exists: boolean; tagId: string | null; lang: string | null; name: string }): TagDialogProblem | null {
  if (!v.key) return 'tagKeyMissing';
  if (!v.lang || v.name.trim() === '') return 'tagNameRequired';
  if (v.exists && !v.tagId) return 'tagExistingRequired';
  return null;
}

/**
 * The tag editor dialog: a new tag of a group, or, with 'Tag exists in other language',
 * the name of an existing tag in another language (choose that tag's language, pick it, then the
 * new name's language and the name). PATCH /api/tag; 'Tag created successfully' or
 * 'Tag could not be created' with the server's reason.
 */
export function TagDialog({
  opened,
  onClose,
  group,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  /** The group whose "+" opened the dialog; the editor may change it. */
  group: TagKey | null;
  onCreated?: (tag: Tag) => void;
}) {
  const { t } = useTranslation(['authoring-editor', 'messages']);
  return (
    <Modal opened={opened} onClose={onClose} title={t('tagDialog.title')} centered>
      {/* A fresh form every time the dialog opens. */}
      {opened && <TagForm group={group} onClose={onClose} onCreated={onCreated} />}
    </Modal>
  );
}

function TagForm({ group, onClose, onCreated }: { group: TagKey | null; onClose: () => void; onCreated?: (tag: Tag) => void }) {
  const { t, i18n } = useTranslation(['authoring-editor', 'messages']);
  const [key, setKey] = useState<TagKey | null>(group);
  const [exists, setExists] = useState(false);
  const [existingLang, setExistingLang] = useState<string | null>('en');
  const [tagId, setTagId] = useState<string | null>(null);
  const [lang, setLang] = useState<string | null>(i18n.language === 'hi' ? 'hi' : 'en');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const patch = usePatchTag();
  // The group's tags, for picking the existing one; the hook needs a key, so none picks 'c' but shows nothing.
  const tags = useTags(key ?? 'c');
  const existing = useMemo(
    () =>
      key && existingLang
        ? (tags.data ?? [])
            .filter((tag) => tag.tags[existingLang])
            .map((tag) => ({ value: tag.tid, label: tag.tags[existingLang]! }))
            .sort((a, b) => a.label.localeCompare(b.label, existingLang))
        : [],
    [tags.data, key, existingLang],
  );

  const save = async () => {
    const found = tagDialogProblem({ key, exists, tagId, lang, name });
    if (found) {
      setProblem(t(`messages:${found}`));
      return;
    }
    setProblem(null);
    try {
      const res = await patch.mutateAsync({ key: key!, tagId: exists ? tagId : null, newTag: name.trim(), lang: lang! });
      notifySuccess(translateServerMessage(res.msg || 'Tag created successfully'));
      onCreated?.(res.data);
      onClose();
    } catch (e) {
      // 'Tag could not be created', with the server's reason when it gave one.
      const reason = e instanceof ApiError && e.msg && e.status !== 0 ? e.msg : null;
      const headline = t('messages:tagNotCreated');
      setProblem(reason && reason !== headline ? `${headline}: ${reason}` : headline);
    }
  };

  const groupLabel = (k: TagKey) => t(`tags.group.${k}`);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="sm">
        <Select
          label={t('tagDialog.group')}
          data={TAG_KEYS.map((k) => ({ value: k, label: groupLabel(k) }))}
          value={key}
          onChange={(v) => {
            setKey(v as TagKey | null);
            setTagId(null);
          }}
          clearable
          clearButtonProps={{ 'aria-label': t('actions.clear') }}
        />
        <Checkbox
          label={t('tagDialog.exists')}
          checked={exists}
          onChange={(e) => {
            setExists(e.currentTarget.checked);
            setTagId(null);
          }}
        />
        {exists && (
          <>
            <Select
              label={t('tagDialog.existingLang')}
              data={TAG_LANGS.map((l) => ({ ...l }))}
              value={existingLang}
              onChange={(v) => {
                setExistingLang(v);
                setTagId(null);
              }}
            />
            <Select
              label={t('tagDialog.existingTag')}
              data={existing}
              value={tagId}
              onChange={setTagId}
              searchable
              clearable
              clearButtonProps={{ 'aria-label': t('actions.clear') }}
              nothingFoundMessage={t('tagDialog.noTags')}
            />
          </>
        )}
        <Select label={t('tagDialog.newLang')} data={TAG_LANGS.map((l) => ({ ...l }))} value={lang} onChange={setLang} clearable clearButtonProps={{ 'aria-label': t('actions.clear') }} />
        <TextInput label={t('tagDialog.newName')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={120} lang={lang ?? undefined} />
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={patch.isPending}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
