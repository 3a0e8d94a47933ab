import { ActionIcon, Button, Card, Checkbox, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { IconArrowDown, IconArrowUp, IconCheck, IconPencil, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import 'dayjs/locale/hi';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { allowedQuestions, DEFAULT_EXAM_SECONDS, SET_LANGUAGES } from '@pm/protocol/question-set';
import { ConfirmDialog } from './confirm-dialog';
import {
  num,
  type PartMarks,
  partKey,
  pickerToPts,
  ptsToPicker,
  type SectionForm,
  sectionNameError,
  type SetForm,
  type SetLanguage,
  type SubForm,
  totalMarksError,
} from './set-form';
import { partMarks } from '@pm/protocol/set-text';
import { setRuleText } from './set-messages';

export type Update = (change: (f: SetForm) => SetForm) => void;
/** Field errors of the last refused save, by field (l, nm) — already translated. */
export type FieldErrors = Partial<Record<'l' | 'nm', string>>;

/** Moves the item at `i` by `by` places (up -1, down +1). */
function moved<T>(list: T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (j < 0 || j >= list.length) return list;
  const next = [...list];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

/**
 * A name field with its button: "Section name" + "Add section" (and the same for sub-sections),
 * checked with the section-name rules (docs/exams.md "Rules of a save") before anything is added.
 */
function AddName({ label, button, others, onAdd }: { label: string; button: string; others: string[]; onAdd: (name: string) => void }) {
  const { t } = useTranslation(['authoring-bank', 'messages']);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const problem = sectionNameError(name, others);
    if (problem) {
      setError(setRuleText(t, problem));
      return;
    }
    onAdd(name.trim());
    setName('');
    setError(null);
  };
  return (
    <Group align="flex-start" gap="xs">
      <TextInput
        label={label}
        value={name}
        maxLength={80}
        error={error}
        onChange={(e) => {
          setName(e.currentTarget.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
        style={{ flex: 1, minWidth: 180 }}
      />
      <Button mt={25} leftSection={<IconPlus size={16} aria-hidden />} onClick={add} variant="light">
        {button}
      </Button>
    </Group>
  );
}

/** A section's or sub-section's title line: rename, move up and down, delete. */
function PartHeader({
  name,
  others,
  first,
  last,
  onRename,
  onMove,
  onDelete,
  kind,
}: {
  name: string;
  others: string[];
  first: boolean;
  last: boolean;
  onRename: (name: string) => void;
  onMove: (by: -1 | 1) => void;
  onDelete: () => void;
  kind: 'section' | 'sub';
}) {
  const { t } = useTranslation(['authoring-bank', 'messages']);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    if (editing === null) return;
    const problem = sectionNameError(editing, others);
    if (problem) return setError(setRuleText(t, problem));
    onRename(editing.trim());
    setEditing(null);
    setError(null);
  };
  if (editing !== null) {
    return (
      <Group align="flex-start" gap="xs">
        <TextInput
          label={t('sections.renameLabel', { name })}
          value={editing}
          maxLength={80}
          error={error}
          autoFocus
          onChange={(e) => {
            setEditing(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              save();
            } else if (e.key === 'Escape') setEditing(null);
          }}
          style={{ flex: 1 }}
        />
        <ActionIcon mt={28} variant="light" aria-label={t('sections.saveName')} onClick={save}>
          <IconCheck size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon mt={28} variant="default" aria-label={t('common.cancel')} onClick={() => setEditing(null)}>
          <IconX size={16} aria-hidden />
        </ActionIcon>
      </Group>
    );
  }
  return (
    <Group justify="space-between" wrap="nowrap">
      <Title order={kind === 'section' ? 4 : 5}>{name}</Title>
      <Group gap={4} wrap="nowrap">
        <Tooltip label={t('sections.rename')}>
          <ActionIcon variant="subtle" aria-label={t('sections.renameOf', { name })} onClick={() => setEditing(name)}>
            <IconPencil size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <ActionIcon variant="subtle" aria-label={t('sections.moveUp', { name })} disabled={first} onClick={() => onMove(-1)}>
          <IconArrowUp size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon variant="subtle" aria-label={t('sections.moveDown', { name })} disabled={last} onClick={() => onMove(1)}>
          <IconArrowDown size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon variant="subtle" color="red" aria-label={t(kind === 'section' ? 'sections.remove' : 'sections.removeSub', { name })} onClick={onDelete}>
          <IconTrash size={16} aria-hidden />
        </ActionIcon>
      </Group>
    </Group>
  );
}

/**
 * A part's own marks (docs/authoring.md "Total marks": a named section uses its own). The words differ from the set's
 * fields ("Marks per question", "Total marks", "Negative marking") so that each field of the form
 * has its own name, the section's name included.
 */
function PartMarksFields({
  name,
  part,
  marks,
  questions,
  onChange,
}: {
  name: string;
  /** The part as the rules name it (the section's or sub-section's own name). */
  part: string;
  marks: PartMarks;
  questions: string[];
  onChange: (m: Partial<PartMarks>) => void;
}) {
  const { t, i18n } = useTranslation(['authoring-bank', 'messages']);
  const nmError = num(marks.nm) < 0 ? setRuleText(t, 'Negative marking should be a positive number') : undefined;
  const tmProblem = totalMarksError({ name: part, q: questions, mpq: num(marks.mpq), tm: num(marks.tm) });
  return (
    <Stack gap={4}>
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
        <NumberInput
          label={t('sections.mpq')}
          aria-label={`${t('sections.mpq')} (${name})`}
          value={marks.mpq}
          min={0}
          decimalScale={2}
          onChange={(v) => onChange({ mpq: v })}
        />
        <NumberInput
          label={t('sections.tm')}
          aria-label={`${t('sections.tm')} (${name})`}
          description={countedText(t, i18n.language, questions.length, num(marks.mpq))}
          error={tmProblem ? setRuleText(t, tmProblem) : undefined}
          value={marks.tm}
          min={0}
          decimalScale={2}
          onChange={(v) => onChange({ tm: v })}
        />
        <NumberInput
          label={t('sections.nm')}
          aria-label={`${t('sections.nm')} (${name})`}
          value={marks.nm}
          decimalScale={2}
          error={nmError}
          onChange={(v) => onChange({ nm: v })}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {t('form.allowed', { n: allowedQuestions(num(marks.tm), num(marks.mpq)) })}
      </Text>
    </Stack>
  );
}

/** What learners are shown as a part's total: its questions × its marks (docs/authoring.md "Total marks"). */
function countedText(t: ReturnType<typeof useTranslation<['authoring-bank', 'messages']>>['t'], lang: string, n: number, mpq: number): string {
  const fmt = new Intl.NumberFormat(lang === 'hi' ? 'hi-IN' : 'en-IN', { maximumFractionDigits: 2 });
  return t('form.counted', { total: fmt.format(partMarks(n, mpq)), n, mpq: fmt.format(mpq) });
}

/** A part's name in Hindi (optional: learners who read Hindi see it, English otherwise). */
function HindiName({ name, value, onChange }: { name: string; value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation('authoring-bank');
  return (
    <TextInput
      label={t('sections.nameHi')}
      aria-label={t('sections.nameHiOf', { name })}
      lang="hi"
      value={value}
      maxLength={80}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

type Removal = { name: string; questions: number; run: () => void } | null;

function SectionCard({
  section,
  index,
  count,
  names,
  update,
  askRemove,
}: {
  section: SectionForm;
  index: number;
  count: number;
  names: string[];
  update: Update;
  askRemove: (r: Removal) => void;
}) {
  const { t } = useTranslation('authoring-bank');
  const patch = (change: (s: SectionForm) => SectionForm) => update((f) => ({ ...f, sections: f.sections.map((s) => (s.key === section.key ? change(s) : s)) }));
  const patchSub = (key: string, change: (s: SubForm) => SubForm) => patch((s) => ({ ...s, subs: s.subs.map((x) => (x.key === key ? change(x) : x)) }));
  const subQuestions = section.subs.reduce((a, s) => a + s.q.length, 0);
  // A section moves its questions into sub-sections only through the Questions tab: the switch
  // waits until the questions it would orphan are gone (such a section has none itself).
  const locked = section.ss ? subQuestions > 0 : section.q.length > 0;
  const others = names.filter((n) => n !== section.name);

  return (
    <Card withBorder padding="sm" component="section" aria-label={section.name}>
      <Stack gap="xs">
        <PartHeader
          kind="section"
          name={section.name}
          others={others}
          first={index === 0}
          last={index === count - 1}
          onRename={(name) => patch((s) => ({ ...s, name }))}
          onMove={(by) => update((f) => ({ ...f, sections: moved(f.sections, index, by) }))}
          onDelete={() =>
            askRemove({
              name: section.name,
              questions: section.q.length + subQuestions,
              run: () => update((f) => ({ ...f, sections: f.sections.filter((s) => s.key !== section.key) })),
            })
          }
        />
        <HindiName name={section.name} value={section.nameHi} onChange={(nameHi) => patch((s) => ({ ...s, nameHi }))} />
        <Switch
          label={t('sections.ss')}
          description={locked ? t('sections.ssLocked') : t('sections.ssHint')}
          checked={section.ss}
          disabled={locked}
          onChange={(e) => {
            const ss = e.currentTarget.checked;
            patch((s) => ({ ...s, ss, subs: ss ? s.subs : [] }));
          }}
        />
        {!section.ss && <PartMarksFields name={section.name} part={section.name} marks={section} questions={section.q} onChange={(m) => patch((s) => ({ ...s, ...m }))} />}
        {section.ss && (
          <Stack gap="xs" pl="md" style={{ borderLeft: '2px solid var(--mantine-color-gray-3)' }}>
            {section.subs.length === 0 && (
              <Text size="sm" c="dimmed">
                {t('sections.noSubs')}
              </Text>
            )}
            {section.subs.map((sub, i) => (
              <Stack key={sub.key} gap={4} component="section" aria-label={`${section.name} › ${sub.name}`}>
                <PartHeader
                  kind="sub"
                  name={sub.name}
                  others={section.subs.filter((x) => x.key !== sub.key).map((x) => x.name)}
                  first={i === 0}
                  last={i === section.subs.length - 1}
                  onRename={(name) => patchSub(sub.key, (x) => ({ ...x, name }))}
                  onMove={(by) => patch((s) => ({ ...s, subs: moved(s.subs, i, by) }))}
                  onDelete={() =>
                    askRemove({
                      name: sub.name,
                      questions: sub.q.length,
                      run: () => patch((s) => ({ ...s, subs: s.subs.filter((x) => x.key !== sub.key) })),
                    })
                  }
                />
                <HindiName name={`${section.name} › ${sub.name}`} value={sub.nameHi} onChange={(nameHi) => patchSub(sub.key, (x) => ({ ...x, nameHi }))} />
                <PartMarksFields
                  name={`${section.name} › ${sub.name}`}
                  part={sub.name}
                  marks={sub}
                  questions={sub.q}
                  onChange={(m) => patchSub(sub.key, (x) => ({ ...x, ...m }))}
                />
              </Stack>
            ))}
            <AddName
              label={t('sections.subName')}
              button={t('sections.addSub')}
              others={section.subs.map((x) => x.name)}
              onAdd={(name) => patch((s) => ({ ...s, subs: [...s.subs, { key: partKey(), name, nameHi: '', q: [], mpq: 1, tm: 0, nm: 0 }] }))}
            />
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The Sections tab: the set's own fields — label, marks per question,
 * total marks and negative marking of the main part, duration, mock or practice, publish date and
 * time, languages, instructions — and its sections with their marks, sub-sections and order.
 */
export function SectionsTab({ form, update, errors, children }: { form: SetForm; update: Update; errors: FieldErrors; children?: ReactNode }) {
  const { t, i18n } = useTranslation(['authoring-bank', 'messages']);
  const [removal, setRemoval] = useState<Removal>(null);
  const set = <K extends keyof SetForm>(key: K, value: SetForm[K]) => update((f) => ({ ...f, [key]: value }));
  const nmError = errors.nm ?? (num(form.nm) < 0 ? setRuleText(t, 'Negative marking should be a positive number') : undefined);
  const tmProblem = totalMarksError({ name: null, q: form.q, mpq: num(form.mpq), tm: num(form.tm) });
  const names = form.sections.map((s) => s.name);

  return (
    <Stack>
      <TextInput label={t('form.label')} value={form.l} maxLength={200} required error={errors.l} onChange={(e) => set('l', e.currentTarget.value)} />
      <TextInput label={t('form.lHi')} description={t('form.hiHint')} lang="hi" value={form.lHi} maxLength={200} onChange={(e) => set('lHi', e.currentTarget.value)} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <NumberInput label={t('form.mpq')} value={form.mpq} min={0} decimalScale={2} onChange={(v) => set('mpq', v)} />
        <NumberInput
          label={t('form.tm')}
          description={countedText(t, i18n.language, form.q.length, num(form.mpq))}
          error={tmProblem ? setRuleText(t, tmProblem) : undefined}
          value={form.tm}
          min={0}
          decimalScale={2}
          onChange={(v) => set('tm', v)}
        />
        <NumberInput label={t('form.nm')} description={t('form.nmHint')} value={form.nm} decimalScale={2} error={nmError} onChange={(v) => set('nm', v)} />
      </SimpleGrid>
      <Text size="xs" c="dimmed" mt={-8}>
        {t('form.mainHint', { n: allowedQuestions(num(form.tm), num(form.mpq)) })}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <NumberInput
          label={t('form.dur')}
          description={num(form.dur) > 0 ? undefined : t('form.durDefault', { n: DEFAULT_EXAM_SECONDS / 60 })}
          placeholder={String(DEFAULT_EXAM_SECONDS / 60)}
          value={form.dur === 0 ? '' : form.dur}
          min={0}
          max={24 * 60}
          allowDecimal={false}
          onChange={(v) => set('dur', v)}
        />
        <DateTimePicker
          label={t('form.pts')}
          description={t('form.ptsHint')}
          value={ptsToPicker(form.pts)}
          onChange={(v) => {
            const pts = pickerToPts(v);
            if (pts !== null) set('pts', pts);
          }}
          valueFormat="DD MMM YYYY, HH:mm"
          locale={i18n.language}
        />
        <Stack gap={6} pt={4}>
          <Checkbox label={t('form.isM')} description={t('form.isMHint')} checked={form.isM} onChange={(e) => set('isM', e.currentTarget.checked)} />
          <Checkbox label={t('form.free')} description={t('form.freeHint')} checked={form.free} onChange={(e) => set('free', e.currentTarget.checked)} />
          <Checkbox.Group label={t('form.langs')} description={t('form.langsHint')} value={form.langs} onChange={(v) => set('langs', v as SetLanguage[])}>
            <Group gap="md" mt={4}>
              {SET_LANGUAGES.map((l) => (
                <Checkbox key={l} value={l} label={t(`langs.${l}`)} />
              ))}
            </Group>
          </Checkbox.Group>
        </Stack>
      </SimpleGrid>
      {children}
      <Title order={3} size="h4" mt="sm">
        {t('sections.title')}
      </Title>
      {form.sections.length === 0 && <Text c="dimmed">{t('sections.none')}</Text>}
      {form.sections.map((s, i) => (
        <SectionCard key={s.key} section={s} index={i} count={form.sections.length} names={names} update={update} askRemove={setRemoval} />
      ))}
      <AddName
        label={t('sections.name')}
        button={t('sections.add')}
        others={names}
        onAdd={(name) => update((f) => ({ ...f, sections: [...f.sections, { key: partKey(), name, nameHi: '', ss: false, q: [], mpq: num(f.mpq) || 1, tm: 0, nm: num(f.nm), subs: [] }] }))}
      />
      <ConfirmDialog
        opened={removal !== null}
        title={t('sections.removeTitle', { name: removal?.name ?? '' })}
        confirmLabel={t('common.delete')}
        onClose={() => setRemoval(null)}
        onConfirm={() => {
          removal?.run();
          setRemoval(null);
        }}
      >
        {t('sections.removeText', { count: removal?.questions ?? 0 })}
      </ConfirmDialog>
    </Stack>
  );
}
