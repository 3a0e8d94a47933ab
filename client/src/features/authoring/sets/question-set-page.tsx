import { Alert, Badge, Button, Center, Container, Group, List, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconDeviceFloppy, IconEyeOff, IconPlus, IconSend } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { QuestionSetView } from '@pm/protocol/question-set';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { useQuestionSet, useSaveQuestionSet, useUnpublishQuestionSet } from '../api/sets';
import { ConfirmDialog } from './confirm-dialog';
import { QuestionsTab } from './questions-tab';
import { type FieldErrors, SectionsTab } from './sections-tab';
import { InstructionsEditor } from './instructions-editor';
import { checkSave, emptyForm, type SaveIssue, type SetForm, setState, toForm, toSave } from './set-form';
import { isNewVersionRefusal, serverText, setRuleText } from './set-messages';
import { SetListTab } from './set-list-tab';
import { SetViewTab } from './set-view-tab';
import { EditorSyncBar } from '../offline/editor-sync-bar';

/** /question-set/new opens an empty form (the "New question set" button goes there). */
export const NEW_SET = 'new';

type Tab = 'list' | 'sections' | 'questions' | 'view';

/** What is saved, to tell whether the form has changes the preview does not have yet. */
const snapshot = (f: SetForm) => JSON.stringify(toSave(f, { draft: f.draft }));

/**
 * The form of one set over the Sections, Questions and View tabs, and its save: "Save draft"
 * (draft, never shown to learners; may hold questions not yet approved) and "Publish"; once it is
 * published (or scheduled), "Save" keeps it so and only "Unpublish", confirmed, makes it a draft
 * again (docs/authoring.md "Publishing and unpublishing": a save never takes a set from learners). The rules
 * of docs/exams.md "Rules of a save" are checked here with the server's schema; what the server refuses besides (only
 * approved questions in a published set) is shown as it says it. A set learners have taken is
 * saved over only after the editor agrees to a new version (409 MSG.setTakenNewVersion): results
 * keep the version they were scored against.
 */
function SetEditor({
  view,
  tab,
  onTab,
  onDirty,
  onOpen,
}: {
  view: QuestionSetView | null;
  tab: Tab;
  onTab: (t: Tab) => void;
  onDirty: (dirty: boolean) => void;
  onOpen: (id: string) => void;
}) {
  const { t } = useTranslation(['authoring-bank', 'messages']);
  const navigate = useNavigate();
  const [initial] = useState<SetForm>(() => (view ? toForm(view) : emptyForm()));
  const [form, setForm] = useState<SetForm>(initial);
  const [saved, setSaved] = useState(() => snapshot(initial));
  const [issues, setIssues] = useState<SaveIssue[]>([]);
  const [serverError, setServerError] = useState<string | null>(null);
  const [newVersion, setNewVersion] = useState<{ draft: boolean; text: string } | null>(null);
  const save = useSaveQuestionSet();
  const unpublish = useUnpublishQuestionSet();
  const [askUnpublish, setAskUnpublish] = useState(false);
  const update = (change: (f: SetForm) => SetForm) => setForm((f) => change(f));
  // Stored and not a draft: learners see it, or will at its publish time.
  const live = form.id !== null && !form.draft;

  const runUnpublish = () => {
    if (!form.id) return;
    setServerError(null);
    unpublish.mutate(form.id, {
      onSuccess: (r) => {
        setAskUnpublish(false);
        notifySuccess(serverText(t, r.msg));
        const next = { ...form, draft: true };
        // Unsaved edits stay in the form (and unsaved); a clean form stays clean.
        if (saved === snapshot(form)) setSaved(snapshot(next));
        setForm(next);
      },
      onError: (err) => {
        setAskUnpublish(false);
        setServerError(serverText(t, err instanceof ApiError ? err.msg : t('messages:someError')));
      },
    });
  };

  const run = (draft: boolean, asNewVersion = false) => {
    setServerError(null);
    const checked = checkSave(form, { draft, newVersion: asNewVersion });
    if (!checked.ok) {
      setIssues(checked.issues);
      return;
    }
    setIssues([]);
    save.mutate(checked.body, {
      onSuccess: (r) => {
        setNewVersion(null);
        notifySuccess(serverText(t, r.msg));
        const next = { ...form, id: r.id, draft };
        setForm(next);
        setSaved(snapshot(next));
        // A new set gets its address; the page then shows it as stored.
        if (!form.id) void navigate(`${paths.questionSet}/${encodeURIComponent(r.id)}`, { replace: true });
      },
      onError: (err) => {
        const status = err instanceof ApiError ? err.status : 0;
        const msg = err instanceof ApiError ? err.msg : t('messages:someError');
        if (isNewVersionRefusal(status, msg)) setNewVersion({ draft, text: serverText(t, msg) });
        else {
          setNewVersion(null);
          setServerError(serverText(t, msg));
        }
      },
    });
  };

  const fieldErrors: FieldErrors = {};
  for (const i of issues) {
    if (i.path.length === 1 && (i.path[0] === 'l' || i.path[0] === 'nm')) fieldErrors[i.path[0]] ??= setRuleText(t, i.message, i.path);
  }
  const messages = [...new Set(issues.map((i) => setRuleText(t, i.message, i.path)))];
  const dirty = saved !== snapshot(form);
  // The page asks before leaving unsaved changes (another set, a new one).
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  useEffect(() => () => onDirty(false), [onDirty]);

  return (
    <Tabs value={tab} onChange={(v) => v && onTab(v as Tab)} keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="list">{t('sets.tabs.list')}</Tabs.Tab>
        <Tabs.Tab value="sections">{t('sets.tabs.sections')}</Tabs.Tab>
        <Tabs.Tab value="questions">{t('sets.tabs.questions')}</Tabs.Tab>
        <Tabs.Tab value="view">{t('sets.tabs.view')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="list">
        <SetListTab onEdit={(id) => (id === view?.id ? onTab('sections') : onOpen(id))} />
      </Tabs.Panel>
      {(['sections', 'questions', 'view'] as const).map((panel) => (
        <Tabs.Panel key={panel} value={panel}>
          <Stack>
            {view && view.taken > 0 && (
              <Alert color="blue" role="status" title={t('sets.takenTitle', { count: view.taken })}>
                {t('sets.takenText', { version: view.version })}
              </Alert>
            )}
            {panel === 'sections' && (
              <SectionsTab form={form} update={update} errors={fieldErrors}>
                <InstructionsEditor value={form.inst} onChange={(inst) => update((f) => ({ ...f, inst }))} />
                <InstructionsEditor
                  value={form.instHi}
                  onChange={(instHi) => update((f) => ({ ...f, instHi }))}
                  label={t('form.instHi')}
                  description={t('form.hiHint')}
                  lang="hi"
                />
              </SectionsTab>
            )}
            {panel === 'questions' && <QuestionsTab form={form} update={update} />}
            {panel === 'view' && <SetViewTab form={form} dirty={dirty} />}
            {messages.length > 0 && (
              <Alert color="red" role="alert" title={t('sets.save.notSaved')}>
                <List size="sm">
                  {messages.map((m) => (
                    <List.Item key={m}>{m}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
            {serverError && (
              <Alert color="red" role="alert" title={t('sets.save.notSaved')} withCloseButton onClose={() => setServerError(null)} closeButtonLabel={t('list.dismiss')}>
                {serverError}
              </Alert>
            )}
            <Group justify="space-between" style={{ position: 'sticky', bottom: 0, background: 'var(--mantine-color-body)', paddingBlock: 8, zIndex: 2 }}>
              <Stack gap={0}>
                <Text size="sm" c="dimmed">
                  {dirty ? t('sets.save.unsaved') : form.id ? t('sets.save.allSaved') : ''}
                </Text>
                {live && (
                  <Text size="xs" c="dimmed">
                    {t('sets.save.liveHint')}
                  </Text>
                )}
              </Stack>
              {live ? (
                <Group gap="xs">
                  <Button
                    variant="default"
                    color="red"
                    leftSection={<IconEyeOff size={16} aria-hidden />}
                    disabled={save.isPending}
                    loading={unpublish.isPending}
                    onClick={() => setAskUnpublish(true)}
                  >
                    {t('sets.save.unpublish')}
                  </Button>
                  <Button leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={save.isPending} disabled={unpublish.isPending} onClick={() => run(false)}>
                    {t('sets.save.save')}
                  </Button>
                </Group>
              ) : (
                <Group gap="xs">
                  <Button variant="default" leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={save.isPending} onClick={() => run(true)}>
                    {t('sets.save.draft')}
                  </Button>
                  <Button leftSection={<IconSend size={16} aria-hidden />} loading={save.isPending} onClick={() => run(false)}>
                    {t('sets.save.publish')}
                  </Button>
                </Group>
              )}
            </Group>
          </Stack>
        </Tabs.Panel>
      ))}
      <ConfirmDialog
        opened={newVersion !== null}
        title={t('sets.save.newVersionTitle')}
        confirmLabel={t('sets.save.newVersionYes')}
        color="blue"
        busy={save.isPending}
        onClose={() => setNewVersion(null)}
        onConfirm={() => newVersion && run(newVersion.draft, true)}
      >
        {newVersion?.text}
      </ConfirmDialog>
      <ConfirmDialog
        opened={askUnpublish}
        title={t('sets.save.unpublishTitle')}
        confirmLabel={t('sets.save.unpublishYes')}
        busy={unpublish.isPending}
        onClose={() => setAskUnpublish(false)}
        onConfirm={runUnpublish}
      >
        {t('sets.save.unpublishText', { label: form.l })}
      </ConfirmDialog>
    </Tabs>
  );
}

/**
 * /question-set and /question-set/:id: the list of sets, and one set's
 * form over the Sections, Questions and Question Set View tabs. "New question set" goes to
 * /question-set/new, an empty form; once saved the set has its own address. On /question-set
 * itself only the list is open: the other tabs wait for a set to be chosen or created.
 */
export default function QuestionSetPage() {
  const { t } = useTranslation('authoring-bank');
  const { id } = useParams();
  const navigate = useNavigate();
  const isNew = id === NEW_SET;
  const stored = useQuestionSet(id && !isNew ? id : null);
  const [tab, setTab] = useState<Tab>(id ? 'sections' : 'list');
  // Another set (or the list) in the address opens on its first tab: adjusted while rendering, as
  // the page stays mounted when only the address changes.
  const [shownId, setShownId] = useState(id);
  if (shownId !== id) {
    setShownId(id);
    setTab(id ? 'sections' : 'list');
  }
  const view = stored.data ?? null;

  // Unsaved changes are not dropped silently (as the admin's 'Discard Changes?').
  const [dirty, setDirty] = useState(false);
  const [leaving, setLeaving] = useState<string | null>(null);
  const onDirty = useCallback((d: boolean) => setDirty(d), []);
  const go = (to: string) => (dirty ? setLeaving(to) : void navigate(to));
  const openSet = (setId: string) => go(`${paths.questionSet}/${encodeURIComponent(setId)}`);
  const newSet = () => go(`${paths.questionSet}/${NEW_SET}`);

  let body;
  if (!id) {
    body = (
      <Tabs value="list">
        <Tabs.List mb="md">
          <Tabs.Tab value="list">{t('sets.tabs.list')}</Tabs.Tab>
          <Tabs.Tab value="sections" disabled>
            {t('sets.tabs.sections')}
          </Tabs.Tab>
          <Tabs.Tab value="questions" disabled>
            {t('sets.tabs.questions')}
          </Tabs.Tab>
          <Tabs.Tab value="view" disabled>
            {t('sets.tabs.view')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="list">
          <SetListTab onEdit={openSet} />
        </Tabs.Panel>
      </Tabs>
    );
  } else if (isNew) {
    body = <SetEditor key={NEW_SET} view={null} tab={tab} onTab={setTab} onDirty={onDirty} onOpen={openSet} />;
  } else if (view) {
    // Keyed by the set: another set (or the same one first loaded) starts its own form.
    body = <SetEditor key={view.id} view={view} tab={tab} onTab={setTab} onDirty={onDirty} onOpen={openSet} />;
  } else if (stored.isError) {
    body = <Alert color="red">{t('sets.loadFailed')}</Alert>;
  } else {
    body = (
      <Center py="xl">
        <Loader aria-label={t('sets.loading')} />
      </Center>
    );
  }

  const state = view ? setState(view) : isNew ? 'draft' : null;
  return (
    <Container size="xl" py="lg">
      <Stack>
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2}>{isNew ? t('sets.newTitle') : view ? view.l : t('sets.title')}</Title>
            {state && (
              <Badge variant="light" color={state === 'published' ? 'green' : state === 'scheduled' ? 'yellow' : 'gray'}>
                {t(`sets.state.${state}`)}
              </Badge>
            )}
            {view && (
              <Text size="sm" c="dimmed">
                {t('sets.version', { version: view.version })}
              </Text>
            )}
          </Group>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={newSet} disabled={isNew}>
            {t('sets.new')}
          </Button>
        </Group>
        {/* What this device has not settled with the server (offline authoring, docs/authoring.md "Offline authoring"). */}
        <EditorSyncBar />
        {body}
      </Stack>
      <ConfirmDialog
        opened={leaving !== null}
        title={t('sets.discardTitle')}
        confirmLabel={t('sets.discard')}
        onClose={() => setLeaving(null)}
        onConfirm={() => {
          const to = leaving;
          setLeaving(null);
          setDirty(false);
          if (to) void navigate(to);
        }}
      >
        {t('sets.discardText')}
      </ConfirmDialog>
    </Container>
  );
}
