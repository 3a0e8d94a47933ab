import { ActionIcon, Alert, Button, Checkbox, Group, Loader, Radio, SegmentedControl, Select, Skeleton, Stack, TagsInput, Text, Textarea } from '@mantine/core';
import { IconHistory, IconPlus, IconTrash } from '@tabler/icons-react';
import { getHTMLFromFragment, type JSONContent } from '@tiptap/core';
import { Node as PMNode } from '@tiptap/pm/model';
import type { Editor } from '@tiptap/react';
import { startTransition, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QUESTION_TYPES, type QuestionStatus, type QuestionType, type QuestionView } from '@pm/protocol/question';
import type { Tag } from '@pm/protocol/tag';
import type { QuestionConflict } from '@/db/editor/editor-replica';
import type { EdQuestionDoc } from '@pm/protocol/sync/ed-question';
import { ApiError } from '@/lib/api-client';
import i18n from '@/lib/i18n';
import { notifyError, notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import { changedMeanwhile, getQuestion, type QuestionSave, useKnownQuestion, useQuestion, useSaveQuestion, useUpdateQuestionStatus } from '../api/questions';
import { ConflictDialog } from '../offline/conflict-dialog';
import type { TagKey } from '../api/tags';
import { TagDialog } from '../tags/tag-dialog';
import { TagSelect } from '../tags/tag-select';
import { DiscardDialog } from './discard-dialog';
import { HistoryDrawer } from './history-drawer';
import { PreviewPanel } from './preview-panel';
import {
  addOption,
  answersOf,
  applySplit,
  applyTranslation,
  DIFFICULTIES,
  type Difficulty,
  type EditLang,
  emptyForm,
  explanationText,
  type FieldError,
  formFromQuestion,
  formToInput,
  hasTranslation,
  isMcq,
  markReviewed,
  MAX_OPTIONS,
  MIN_OPTIONS,
  optionText,
  type QuestionForm,
  questionText,
  removeOption,
  sameQuestion,
  setAnswers,
  setExplanation,
  setOptionText,
  setQuestionText,
  setType,
  toggleCorrect,
  toTestQuestion,
  validateForm,
} from './question-form';
import classes from './question-editor.module.css';
import { RichTextField } from './rich-text-field';
import { splitLastParagraphs } from './split-options';
import { StatusBadge, StatusControls } from './status-controls';
import { TranslateControls } from './translate-controls';
import { useLeaveGuard } from '@/hooks/use-leave-guard';

export type QuestionEditorProps = {
  /** The question to edit (?id=), or null for a new one. */
  id: string | null;
  /** A save went through; a new question now has this id. */
  onSaved?: (id: string) => void;
  /** The editor started a new question (the page drops ?id=). */
  onNew?: () => void;
  /** Whether there are unsaved changes (the Create New Question dialog asks before closing). */
  onDirtyChange?: (dirty: boolean) => void;
  /** False while the editor is kept hidden (over the list, between opens): it guards no leaving. */
  active?: boolean;
};

/** A question as the side-by-side comparison shows it (the offline conflicts' shape). */
function comparable(q: QuestionSave | QuestionView, version: number): EdQuestionDoc {
  return {
    id: q.id ?? '',
    q: q.q,
    ops: q.ops ?? {},
    c: q.c ?? [],
    d: q.d ?? '3',
    ca: q.ca,
    qt: q.qt ?? 'mcq1',
    s: q.s ?? null,
    t: q.t ?? [],
    e: q.e ?? [],
    st: q.st ?? 'PENDING',
    reason: q.reason ?? null,
    trans: (q.trans ?? {}) as EdQuestionDoc['trans'],
    expl: q.expl ?? '',
    version,
    updatedAt: 'updatedAt' in q ? q.updatedAt : Date.now(),
    _deleted: false,
  };
}

/** This editor's save (made from version `base`) beside the current question, as the comparison takes them. */
function conflictOf(input: QuestionSave, base: number, current: QuestionView): QuestionConflict {
  return { id: current.id, mine: comparable(input, base), theirs: comparable(current, current.version), at: Date.now() };
}

/** HTML of a document (or of one block, wrapped in a document) in the editor's schema. */
function htmlOf(editor: Editor, doc: JSONContent): string {
  const node = PMNode.fromJSON(editor.schema, doc);
  // One empty paragraph is an empty field ('' as the field itself reports it).
  const empty = node.childCount === 1 && node.firstChild?.type.name === 'paragraph' && node.firstChild.content.size === 0;
  return empty ? '' : getHTMLFromFragment(node.content, editor.schema);
}

/**
 * The question editor (docs/authoring.md; docs/exams.md "Rules of a save"): the
 * question and its options in rich text, English as the base and Hindi as its translation, type,
 * difficulty, tags, review status, history, Save and Reset, and the learner's preview beside it.
 * Used by /question-editor and by the navigation's Create New Question dialog.
 */
export function QuestionEditor({ id, onSaved, onNew, onDirtyChange, active = true }: QuestionEditorProps) {
  const { t } = useTranslation(['authoring-editor', 'messages']);
  // A question the list already holds is drawn from its copy in the first render (the list's row
  // is the same view); the server's answer replaces it below when it differs and nothing is edited.
  const known = useKnownQuestion(id);
  const [first] = useState(() => (known ? formFromQuestion(known) : emptyForm()));
  const [form, setForm] = useState<QuestionForm>(first);
  const [saved, setSaved] = useState<QuestionForm>(first);
  // The version `saved` is of, sent with a save: a newer one on the server is another editor's
  // save, answered 409 and shown beside this editor's (docs/authoring.md, "Two editors at once").
  // Null when not known, 0 for a question made on this device and not yet uploaded.
  const [base, setBase] = useState<number | null>(() => known?.version ?? null);
  // A save refused because another editor saved first: what this editor sent, and the current question.
  const [conflict, setConflict] = useState<{ input: QuestionSave; theirs: QuestionView; shown: QuestionConflict } | null>(null);
  const [lang, setLang] = useState<EditLang>('en');
  const [previewLang, setPreviewLang] = useState<EditLang>('en');
  const [showErrors, setShowErrors] = useState(false);
  const [tagDialog, setTagDialog] = useState<{ open: boolean; group: TagKey | null }>({ open: false, group: null });
  const [historyOpen, setHistoryOpen] = useState(false);
  const [splitNote, setSplitNote] = useState(false);
  const [pendingDiscard, setPendingDiscard] = useState<(() => void) | null>(null);
  const radioName = useId();

  // A question asked for by id loads into the form once (a save or a restore keeps the form's own copy).
  const wanted = id && id !== form.id ? id : null;
  const query = useQuestion(id);
  const [taken, setTaken] = useState(() => (known ? query.data : undefined));
  if (wanted && query.data?.id === wanted) {
    const loaded = formFromQuestion(query.data);
    setForm(loaded);
    setSaved(loaded);
    setBase(query.data.version);
    setShowErrors(false);
    setTaken(query.data);
  } else if (!wanted && id && query.data?.id === id && query.data !== taken) {
    // A fresher copy of the question on screen (the server's, after the list's): taken while
    // nothing is edited; the form's own copy (after a save or a restore) when it is the same.
    setTaken(query.data);
    const fresh = formFromQuestion(query.data);
    const version = query.data.version;
    if (sameQuestion(form, saved)) {
      if (JSON.stringify(fresh) !== JSON.stringify(saved)) {
        setForm(fresh);
        setSaved(fresh);
      }
      setBase(version);
    } else if (sameQuestion(fresh, saved)) {
      // Edited, and the copy is the question the form was loaded as at a newer version (this
      // device's own upload, a review step): the edit goes from that version. A copy with other
      // content leaves the version, and the save is refused 409 with both versions shown.
      setBase((b) => (b === null || version > b ? version : b));
    }
  }

  // The question and its options are drawn first, ready to type in; the tag pickers, the status
  // controls and the learner's preview follow in a transition (interruptible: a keystroke in the
  // meantime is handled first), so opening a question is not held up by what is not typed into.
  // An editor kept hidden for the next open (over the list) waits with only the question's editor
  // made: its question is all the open has to draw before the editor can type.
  const [secondary, setSecondary] = useState(false);
  useEffect(() => {
    if (active && !wanted && !secondary) startTransition(() => setSecondary(true));
  }, [active, wanted, secondary]);

  // 'pm:editor-open' (scripts/bench-authoring.ts): from the list's Edit to the loaded question
  // painted in its editors, ready to type (the frame after the commit that put it in the form);
  // 'pm:editor-complete': to the rest of the screen drawn as well.
  const loadedId = form.id;
  useEffect(() => {
    if (!loadedId || performance.getEntriesByName('pm:editor-open-start').length === 0) return;
    const frame = requestAnimationFrame(() => setTimeout(() => performance.measure('pm:editor-open', 'pm:editor-open-start')));
    return () => cancelAnimationFrame(frame);
  }, [loadedId]);
  useEffect(() => {
    if (!secondary || !loadedId || performance.getEntriesByName('pm:editor-open-start').length === 0) return;
    const frame = requestAnimationFrame(() =>
      setTimeout(() => {
        performance.measure('pm:editor-complete', 'pm:editor-open-start');
        performance.clearMarks('pm:editor-open-start');
      }),
    );
    return () => cancelAnimationFrame(frame);
  }, [secondary, loadedId]);

  const dirty = !sameQuestion(form, saved);
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  const leave = useLeaveGuard(dirty && active);

  const errors = useMemo(() => validateForm(form), [form]);
  const shown = showErrors ? errors : [];
  const errorOf = (field: FieldError['field']) => {
    const e = shown.find((x) => x.lang === lang && x.field === field);
    return e ? t(`validation.${e.msg}`) : undefined;
  };
  // The preview follows the text at a lower priority than typing.
  const previewForm = useDeferredValue(form);
  const preview = useMemo(() => toTestQuestion(previewForm), [previewForm]);
  const mcq = isMcq(form.qt);
  const keys = Object.keys(form.ops);
  const label = (key: string) => key.toUpperCase();

  const chooseLang = (l: EditLang) => {
    setLang(l);
    setPreviewLang(l);
  };
  const replaceForm = (next: QuestionForm, version: number | null) => {
    setForm(next);
    setSaved(next);
    setBase(version);
    setShowErrors(false);
  };
  /** Runs `action` at once, or after 'Discard Changes?' when there are unsaved edits. */
  const afterDiscard = (action: () => void) => (dirty ? setPendingDiscard(() => action) : action());

  // Ctrl+Enter / Shift+Enter in the question splits its last 4 paragraphs into options a–d.
  const onSplit = (editor: Editor) => {
    const split = splitLastParagraphs(editor.getJSON());
    if (!split) {
      setSplitNote(true);
      return false;
    }
    setSplitNote(false);
    const options = split.options.map((p) => htmlOf(editor, { type: 'doc', content: [p] }));
    setForm((f) => applySplit(f, lang, htmlOf(editor, split.question), options));
    return true;
  };

  const save = useSaveQuestion();
  const onSave = async () => {
    setShowErrors(true);
    if (errors.length > 0) {
      // The mistakes may be in the other language: show that one.
      if (!errors.some((e) => e.lang === lang)) chooseLang(errors[0]!.lang);
      return;
    }
    // docs/configuration.md "Machine translation": the translation on screen (and any edited) is saved as reviewed.
    const input = markReviewed(formToInput(form), form, saved, lang);
    try {
      // A version not known here (a question made on this device, since uploaded): the current one decides.
      if (input.id && !base) await onChanged(input, (await getQuestion(input.id)).data, false);
      else await store(input.id ? { ...input, version: base! } : input);
    } catch (err) {
      await refused(input, err, false);
    }
  };
  /** Saves and takes the stored question as the form's. */
  const store = async (input: QuestionSave) => {
    const res = await save.mutateAsync(input);
    notifySuccess(translateServerMessage(res.msg || (input.id ? 'Question updated successfully' : 'Question created successfully')));
    const next = res.data ? formFromQuestion(res.data) : { ...form, id: res.id };
    replaceForm(next, res.data ? res.data.version : null);
    if (next.id) onSaved?.(next.id);
  };
  /**
   * The question is now `current`. When that is the question this form was loaded as (only its
   * version moved: this device's own upload, a review step), the edit is saved on top of it once;
   * else another editor changed it, and both versions are shown for this editor to choose.
   */
  const onChanged = async (input: QuestionSave, current: QuestionView, retried: boolean) => {
    if (!retried && sameQuestion(formFromQuestion(current), saved)) {
      try {
        await store({ ...input, version: current.version });
      } catch (err) {
        await refused(input, err, true);
      }
      return;
    }
    await i18n.loadNamespaces('authoring-bank').catch(() => undefined);
    setConflict({ input, theirs: current, shown: conflictOf(input, base ?? 0, current) });
  };
  const refused = async (input: QuestionSave, err: unknown, retried: boolean) => {
    const current = changedMeanwhile(err);
    if (current) await onChanged(input, current, retried);
    // Another 409 (a published set keeps it approved): lib/api-client leaves every 409 of a save to us.
    else if (err instanceof ApiError && err.status === 409) notifyError(err.msg);
    // Anything else: lib/api-client has shown the server's message, translated.
  };
  /** The editor's choice in the comparison: the other editor's version into the form, or their own saved on top of it. */
  const chooseVersion = async (choice: 'mine' | 'theirs') => {
    if (!conflict) return;
    const { input, theirs } = conflict;
    setConflict(null);
    if (choice === 'theirs') {
      replaceForm(formFromQuestion(theirs), theirs.version);
      return;
    }
    try {
      await store({ ...input, version: theirs.version });
    } catch (err) {
      await refused(input, err, true);
    }
  };

  const status = useUpdateQuestionStatus();
  const moveStatus = async (st: QuestionStatus, reason?: string) => {
    if (!form.id) return false;
    try {
      const res = await status.mutateAsync({ id: form.id, st, ...(reason ? { reason } : {}) });
      notifySuccess(translateServerMessage(res.msg || 'Question status updated successfully'));
      const change = { st: res.data?.st ?? st, reason: res.data ? (res.data.reason ?? null) : (reason ?? null) };
      setForm((f) => ({ ...f, ...change }));
      setSaved((s) => ({ ...s, ...change }));
      // A review step is a new version: the next save goes from it.
      if (res.data) setBase(res.data.version);
      return true;
    } catch {
      // lib/api-client has shown the server's message.
      return false;
    }
  };

  const onRestored = (v: QuestionView) => {
    replaceForm(formFromQuestion(v), v.version);
    setHistoryOpen(false);
  };
  const onTagCreated = (tag: Tag) => {
    setForm((f) => {
      if (tag.key === 's') return { ...f, s: tag.tid };
      const list = f[tag.key];
      return list.includes(tag.tid) ? f : { ...f, [tag.key]: [...list, tag.tid] };
    });
  };

  if (wanted && query.isError) {
    return (
      <Alert color="red" role="alert">
        {query.error instanceof ApiError ? query.error.msg : t('messages:questionNotFound')}
      </Alert>
    );
  }
  if (wanted) return <Loader aria-label={t('actions.loading')} />;

  const fieldName = (e: FieldError) =>
    e.field === 'q' ? t('form.question') : e.field === 'ca' ? t('form.correctAnswer') : t('form.option', { key: label(e.field.slice(3)) });
  const tagPlus = (group: TagKey) => (
    <ActionIcon variant="default" size={36} aria-label={t('tags.add', { group: t(`tags.group.${group}`) })} onClick={() => setTagDialog({ open: true, group })}>
      <IconPlus size={16} aria-hidden />
    </ActionIcon>
  );
  const answers = answersOf(form, lang);

  return (
    <>
      <div className={classes.layout}>
        <div className={classes.side}>
          <Stack gap="md">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Group gap="sm">
                <Text fw={600}>{form.id ? t('title.edit') : t('title.new')}</Text>
                <StatusBadge st={form.st} reason={form.reason} />
              </Group>
              <Group gap="sm">
                <SegmentedControl
                  aria-label={t('form.language')}
                  value={lang}
                  onChange={(v) => chooseLang(v as EditLang)}
                  data={[
                    { value: 'en', label: 'English' },
                    { value: 'hi', label: 'हिन्दी' },
                  ]}
                />
                {form.id && (
                  <Button variant="default" leftSection={<IconHistory size={16} aria-hidden />} onClick={() => setHistoryOpen(true)}>
                    {t('history.open')}
                  </Button>
                )}
              </Group>
            </Group>
            {lang === 'hi' && (
              <Alert color="blue" variant="light" p="xs">
                {t('form.hindiNote')}
              </Alert>
            )}
            <TranslateControls form={form} saved={saved} lang={lang} onTranslated={(l, texts) => setForm((f) => applyTranslation(f, l, texts))} />
            {secondary ? (
            <Group grow align="flex-start" wrap="wrap">
              <Select
                label={t('form.type')}
                data={QUESTION_TYPES.map((qt) => ({ value: qt, label: t(`type.${qt}`) }))}
                value={form.qt}
                onChange={(v) => v && setForm((f) => setType(f, v as QuestionType))}
                allowDeselect={false}
                miw={180}
              />
              <Select
                label={t('form.difficulty')}
                data={DIFFICULTIES.map((d) => ({ value: d, label: t(`difficulty.${d}`) }))}
                value={form.d}
                onChange={(v) => v && setForm((f) => ({ ...f, d: v as Difficulty }))}
                allowDeselect={false}
                miw={180}
              />
            </Group>
            ) : (
              <Skeleton h={59} aria-hidden />
            )}

            <div>
              <RichTextField
                key={`q-${lang}`}
                label={t('form.question')}
                value={questionText(form, lang)}
                onChange={(html) => setForm((f) => setQuestionText(f, lang, html))}
                lang={lang}
                error={errorOf('q')}
                onSplit={onSplit}
                minHeight={140}
                // The toolbar follows with the rest (below): the question is ready to type first.
                withToolbar={secondary}
              />
              <Text size="xs" c={splitNote ? 'orange.8' : 'dimmed'} mt={4} aria-live="polite">
                {splitNote ? t('form.splitNothing') : t('form.splitHint')}
              </Text>
            </div>

            {mcq && (
              <Stack gap="sm" role="group" aria-label={t('form.options')}>
                <Text fw={500} size="sm">
                  {form.qt === 'mcq1' ? t('form.optionsOne') : t('form.optionsMany')}
                </Text>
                {keys.map((k) => {
                  const correct = form.ca.includes(k);
                  const markLabel = t('form.isCorrect', { key: label(k) });
                  return (
                    <Group key={`${k}-${lang}`} align="flex-start" wrap="nowrap" gap="sm">
                      <Stack gap={2} align="center" pt={30} w={64}>
                        {form.qt === 'mcq1' ? (
                          <Radio name={radioName} checked={correct} onChange={() => setForm((f) => toggleCorrect(f, k))} aria-label={markLabel} />
                        ) : (
                          <Checkbox checked={correct} onChange={() => setForm((f) => toggleCorrect(f, k))} aria-label={markLabel} />
                        )}
                        <Text size="xs" c={correct ? 'green.8' : 'dimmed'} aria-hidden>
                          {t('form.correct')}
                        </Text>
                      </Stack>
                      <div style={{ flex: 1, minWidth: 0 }}>
                        <RichTextField
                          label={t('form.option', { key: label(k) })}
                          value={optionText(form, lang, k)}
                          onChange={(html) => setForm((f) => setOptionText(f, lang, k, html))}
                          lang={lang}
                          error={errorOf(`op:${k}`)}
                          // Drawn as text first, its editor made with the rest (or when pressed).
                          live={secondary}
                          withToolbar={secondary}
                        />
                      </div>
                      <ActionIcon
                        mt={30}
                        variant="subtle"
                        color="red"
                        aria-label={t('form.removeOption', { key: label(k) })}
                        disabled={keys.length <= MIN_OPTIONS}
                        onClick={() => setForm((f) => removeOption(f, k))}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Group>
                  );
                })}
                <Group justify="space-between">
                  <Button variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />} disabled={keys.length >= MAX_OPTIONS} onClick={() => setForm(addOption)}>
                    {t('form.addOption')}
                  </Button>
                </Group>
                {errorOf('ca') && (
                  <Text c="red" size="sm" role="alert">
                    {errorOf('ca')}
                  </Text>
                )}
              </Stack>
            )}
            {form.qt === 'f' && (
              <TagsInput
                label={t('form.acceptedAnswers')}
                description={t('form.acceptedHint')}
                value={answers}
                onChange={(v) => setForm((f) => setAnswers(f, lang, v.map((a) => a.trim()).filter(Boolean).map((a) => a.slice(0, 500))))}
                maxTags={20}
                error={errorOf('ca')}
                lang={lang}
                clearable
              />
            )}
            {form.qt === 'n' && (
              <TagsInput
                label={t('form.numericAnswers')}
                description={t('form.numericHint')}
                value={answers}
                onChange={(v) => setForm((f) => setAnswers(f, lang, v.map((a) => a.trim()).filter(Boolean).map((a) => a.slice(0, 500))))}
                maxTags={20}
                error={errorOf('ca')}
                inputMode="decimal"
                clearable
              />
            )}
            {form.qt === 's' && (
              <Textarea
                label={t('form.modelAnswer')}
                value={answers[0] ?? ''}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  setForm((f) => setAnswers(f, lang, v === '' ? [] : [v]));
                }}
                maxLength={500}
                // Fixed rows, resizable: autosizing measures the page's layout as the editor opens.
                rows={4}
                resize="vertical"
                error={errorOf('ca')}
                lang={lang}
              />
            )}

            <div>
              <RichTextField
                key={`expl-${lang}`}
                label={t('form.explanation')}
                value={explanationText(form, lang)}
                onChange={(html) => setForm((f) => setExplanation(f, lang, html))}
                lang={lang}
                minHeight={80}
                live={secondary}
                withToolbar={secondary}
              />
              <Text size="xs" c="dimmed" mt={4}>
                {lang === 'en' ? t('form.explanationHint') : t('form.explanationHintHi')}
              </Text>
            </div>

            {secondary ? (
            <div className={classes.tags}>
              <TagSelect group="c" multiple label={t('tags.group.c')} value={form.c} onChange={(c) => setForm((f) => ({ ...f, c }))} rightSection={tagPlus('c')} />
              <TagSelect group="s" label={t('tags.group.s')} value={form.s} onChange={(s) => setForm((f) => ({ ...f, s }))} rightSection={tagPlus('s')} />
              <TagSelect group="t" multiple label={t('tags.group.t')} value={form.t} onChange={(tt) => setForm((f) => ({ ...f, t: tt }))} rightSection={tagPlus('t')} />
              <TagSelect group="e" multiple label={t('tags.group.e')} value={form.e} onChange={(e) => setForm((f) => ({ ...f, e }))} rightSection={tagPlus('e')} />
            </div>
            ) : (
              <Skeleton h={140} aria-hidden />
            )}

            {secondary && form.id && (
              <StatusControls
                st={form.st}
                busy={status.isPending}
                onMove={moveStatus}
                disabledReason={dirty ? t('status.saveFirst') : null}
              />
            )}

            {shown.length > 0 && (
              <Alert color="red" title={t('form.fixErrors')} role="alert">
                <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                  {shown.map((e) => (
                    <li key={`${e.lang}-${e.field}`}>
                      {fieldName(e)}
                      {e.lang === 'hi' ? ` (${t('lang.hi')})` : ''}: {t(`validation.${e.msg}`)}
                    </li>
                  ))}
                </ul>
              </Alert>
            )}

            <Group gap="sm">
              <Button onClick={() => void onSave()} loading={save.isPending}>
                {t('actions.save')}
              </Button>
              <Button variant="default" disabled={!dirty} onClick={() => replaceForm(saved, base)}>
                {t('actions.reset')}
              </Button>
              {form.id && (
                <Button
                  variant="subtle"
                  onClick={() =>
                    afterDiscard(() => {
                      replaceForm(emptyForm(), null);
                      onNew?.();
                    })
                  }
                >
                  {t('actions.newQuestion')}
                </Button>
              )}
              {dirty && (
                <Text size="sm" c="dimmed" aria-live="polite">
                  {t('form.unsaved')}
                </Text>
              )}
            </Group>
          </Stack>
        </div>
        <div className={classes.side}>
          <div className={classes.sticky}>
            {secondary && <PreviewPanel question={preview} lang={previewLang} onLang={setPreviewLang} hasHindi={hasTranslation(form, 'hi')} />}
          </div>
        </div>
      </div>

      {secondary && <TagDialog opened={tagDialog.open} group={tagDialog.group} onClose={() => setTagDialog((d) => ({ ...d, open: false }))} onCreated={onTagCreated} />}
      {secondary && form.id && <HistoryDrawer id={form.id} opened={historyOpen} onClose={() => setHistoryOpen(false)} dirty={dirty} onRestored={onRestored} />}
      {conflict && <ConflictDialog conflict={conflict.shown} onChoose={chooseVersion} onClose={() => setConflict(null)} />}
      <DiscardDialog
        opened={leave.asking || pendingDiscard !== null}
        onStay={() => {
          leave.stay();
          setPendingDiscard(null);
        }}
        onDiscard={() => {
          if (pendingDiscard) {
            const action = pendingDiscard;
            setPendingDiscard(null);
            action();
          } else leave.discard();
        }}
      />
    </>
  );
}

export default QuestionEditor;
