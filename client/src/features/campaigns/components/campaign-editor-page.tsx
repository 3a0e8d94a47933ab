import { ActionIcon, Alert, Anchor, Button, Center, Container, Fieldset, Group, Loader, Paper, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { formatPaise } from '@/lib/payments/amount';
import { campaignKeys, createCampaign, submitCampaign, updateCampaign, useCampaign } from '../api/campaigns';
import { CAUSES, type Campaign } from '../api/types';
import { useLang } from '../hooks/use-lang';
import { draftErrors, draftOf, editorGoal, type EditorErrorKey, editorValuesOf, type EditorValues, emptyNeedRow } from '../lib/editor-values';
import { CampaignImages } from './campaign-images';
import { StoryEditor } from './story-editor';

/** Only a draft or a refused campaign is edited by its owner (docs/charity.md "API": PATCH /campaign/:id). */
const EDITABLE = new Set(['DRAFT', 'REFUSED']);

export const editorPath = (id: string) => `${paths.myCampaigns}/${encodeURIComponent(id)}/edit`;

function NeedRows({ form }: { form: ReturnType<typeof useForm<EditorValues>> }) {
  const { t } = useTranslation('campaign');
  const lang = useLang();
  const rows = form.values.need;
  return (
    <Fieldset legend={t('editor.need')} variant="filled">
      <Stack gap="sm">
        <Text size="xs" c="dimmed">
          {t('editor.needHint')}
        </Text>
        {rows.map((_, i) => (
          <Paper key={i} withBorder p="xs" radius="sm" data-testid="need-row">
            <Stack gap={6}>
              <Group justify="space-between">
                <Text size="sm" fw={500}>
                  {t('editor.needItem', { n: i + 1 })}
                </Text>
                {rows.length > 1 && (
                  <ActionIcon variant="subtle" color="red" aria-label={t('editor.needRemove', { n: i + 1 })} onClick={() => form.removeListItem('need', i)}>
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                <TextInput label={t('editor.needWhatEn')} lang="en" {...form.getInputProps(`need.${i}.whatEn`)} />
                <TextInput label={t('editor.needWhatHi')} lang="hi" {...form.getInputProps(`need.${i}.whatHi`)} />
                <TextInput label={t('editor.needFrom')} {...form.getInputProps(`need.${i}.from`)} />
                <TextInput label={t('editor.needAmount')} inputMode="decimal" leftSection={<Text span>₹</Text>} {...form.getInputProps(`need.${i}.amount`)} />
              </SimpleGrid>
            </Stack>
          </Paper>
        ))}
        <Group justify="space-between">
          <Button variant="subtle" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => form.insertListItem('need', emptyNeedRow())}>
            {t('editor.needAdd')}
          </Button>
          <Text fw={600} data-testid="editor-goal">
            {t('editor.goal', { goal: formatPaise(editorGoal(rows), lang) })}
          </Text>
        </Group>
      </Stack>
    </Fieldset>
  );
}

function EditorForm({ campaign }: { campaign: Campaign | null }) {
  const { t } = useTranslation(['campaign', 'common']);
  const navigate = useNavigate();
  const client = useQueryClient();
  const [busy, setBusy] = useState<'save' | 'submit' | null>(null);
  const [note, setNote] = useState('');
  const errorText = (error: ReactNode) => (typeof error === 'string' && error ? t(`campaign:${error as EditorErrorKey}`) : error);
  const form = useForm<EditorValues>({ initialValues: editorValuesOf(campaign), enhanceGetInputProps: ({ inputProps }) => ({ error: errorText(inputProps.error) }) });
  const refused = campaign?.status === 'REFUSED';

  /** Saves the draft (a new one is made first); answers its id, or null when the server refused. */
  const save = async (): Promise<string | null> => {
    try {
      if (campaign) {
        await updateCampaign(campaign.id, { ...draftOf(form.values), images: form.values.images.map((i) => i.id) });
        return campaign.id;
      }
      const made = await createCampaign(draftOf(form.values));
      return made.data.id;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return null;
    }
  };

  const onSave = async () => {
    const errors = draftErrors(form.values, { submitting: false });
    form.setErrors(errors);
    if (Object.keys(errors).length) return;
    setBusy('save');
    const id = await save();
    setBusy(null);
    if (!id) return;
    await client.invalidateQueries({ queryKey: campaignKeys.all });
    notifySuccess(t('campaign:editor.saved'));
    if (!campaign) void navigate(editorPath(id), { replace: true });
  };

  const onSubmit = async () => {
    const errors = draftErrors(form.values, { submitting: true });
    form.setErrors(errors);
    if (Object.keys(errors).length) return;
    setBusy('submit');
    const id = await save();
    if (id) {
      try {
        await submitCampaign(id, refused ? note.trim() : undefined);
        await client.invalidateQueries({ queryKey: campaignKeys.all });
        notifySuccess(t('campaign:editor.submitted'));
        void navigate(paths.myCampaigns);
        return;
      } catch {
        // The fetch wrapper has shown the server's reason.
      }
    }
    setBusy(null);
  };

  return (
    <Stack gap="md">
      {refused && campaign?.reason && (
        <Alert color="red" variant="light" title={t('campaign:mine.refusedTitle')} data-testid="refusal-reason">
          {campaign.reason}
        </Alert>
      )}
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'lg' }}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label={t('campaign:editor.titleEn')} withAsterisk lang="en" maxLength={120} {...form.getInputProps('titleEn')} />
            <TextInput label={t('campaign:editor.titleHi')} lang="hi" maxLength={120} {...form.getInputProps('titleHi')} />
          </SimpleGrid>
          <StoryEditor label={t('campaign:editor.storyEn')} lang="en" value={form.values.storyEn} onChange={(html) => form.setFieldValue('storyEn', html)} error={errorText(form.errors.storyEn) as string | undefined} />
          <StoryEditor label={t('campaign:editor.storyHi')} lang="hi" value={form.values.storyHi} onChange={(html) => form.setFieldValue('storyHi', html)} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t('campaign:editor.cause')}
              withAsterisk
              data={CAUSES.map((c) => ({ value: c, label: t(`campaign:cause.${c}`) }))}
              allowDeselect={false}
              {...form.getInputProps('cause')}
            />
            <TextInput label={t('campaign:editor.endsOn')} withAsterisk type="date" {...form.getInputProps('endsOn')} />
          </SimpleGrid>
          <NeedRows form={form} />
          <CampaignImages campaignId={campaign?.id ?? null} images={form.values.images} onChange={(images) => form.setFieldValue('images', images)} />
          {refused && (
            <Textarea label={t('campaign:editor.answer')} description={t('campaign:editor.answerHint')} autosize minRows={2} maxLength={1000} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => void onSave()} loading={busy === 'save'} disabled={busy !== null && busy !== 'save'}>
              {t('campaign:editor.save')}
            </Button>
            <Button onClick={() => void onSubmit()} loading={busy === 'submit'} disabled={busy !== null && busy !== 'submit'}>
              {refused ? t('campaign:editor.resubmit') : t('campaign:editor.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

/** A new draft (`/my-campaigns/new`) or an existing one (`/my-campaigns/:id/edit`). */
export default function CampaignEditorPage() {
  const { id } = useParams();
  const { t } = useTranslation(['campaign', 'common']);
  const query = useCampaign(id ?? '', Boolean(id));
  let body: ReactNode;
  if (!id) body = <EditorForm campaign={null} />;
  else if (query.isPending)
    body = (
      <Center py="xl">
        <Loader aria-label={t('common:actions.loading')} />
      </Center>
    );
  else if (query.isError)
    body = (
      <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} title={t('campaign:detail.loadFailed')} role="alert">
        {query.error instanceof ApiError ? query.error.msg : t('common:errors.someError')}
      </Alert>
    );
  else if (!EDITABLE.has(query.data.status))
    body = (
      <Alert color="gray" variant="light" data-testid="not-editable">
        {t('campaign:editor.notEditable', { status: t(`campaign:status.${query.data.status}`) })}
      </Alert>
    );
  // Keyed by the campaign: a draft saved for the first time opens here with its own values.
  else body = <EditorForm key={query.data.id} campaign={query.data} />;
  return (
    <Container size="md" py="lg">
      <Stack gap="md">
        <Anchor component={Link} to={paths.myCampaigns} size="sm">
          {t('campaign:editor.back')}
        </Anchor>
        <Title order={1} size="h2">
          {id ? t('campaign:editor.editTitle') : t('campaign:editor.newTitle')}
        </Title>
        {body}
      </Stack>
    </Container>
  );
}
