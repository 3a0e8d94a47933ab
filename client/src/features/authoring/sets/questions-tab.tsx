import { closestCenter, DndContext, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Badge, Button, Card, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconGripVertical, IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QuestionView } from '@pm/protocol/question';
import { RichHtml } from '@/components/rich-html';
import { QuestionList, STATUS_COLOR } from '../list/question-list';
import { type FormPart, formParts, formQuestionIds, type SetForm, withPartQuestions } from './set-form';
import type { Update } from './sections-tab';
import { useSetQuestions } from './use-set-questions';

/** The name of a part as the editor reads it: Main, a section, or "section › sub-section". */
export function usePartTitle() {
  const { t } = useTranslation('authoring-bank');
  return (p: Pick<FormPart, 'name' | 'section'>) => (p.name === null ? t('selection.main') : p.section ? `${p.section} › ${p.name}` : p.name);
}

function ChosenQuestion({
  id,
  n,
  question,
  loading,
  first,
  last,
  onMove,
  onRemove,
}: {
  id: string;
  n: number;
  question: QuestionView | undefined;
  loading: boolean;
  first: boolean;
  last: boolean;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('authoring-bank');
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  return (
    <Group
      ref={setNodeRef}
      wrap="nowrap"
      align="flex-start"
      gap="xs"
      py={4}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1, borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      data-testid={`chosen-${id}`}
    >
      <ActionIcon ref={setActivatorNodeRef} variant="subtle" color="gray" aria-label={t('questions.drag', { n })} {...attributes} {...listeners} style={{ cursor: 'grab' }}>
        <IconGripVertical size={16} aria-hidden />
      </ActionIcon>
      <Text fw={600} size="sm" w={28}>
        {n}.
      </Text>
      <div style={{ flex: 1, minWidth: 0 }}>
        {question ? (
          <>
            <RichHtml html={question.q} style={{ maxHeight: '4.5em', overflow: 'hidden' }} />
            {question.st !== 'APPROVED' && (
              <Badge size="xs" variant="light" color={STATUS_COLOR[question.st]}>
                {t(`status.${question.st}`)}
              </Badge>
            )}
          </>
        ) : loading ? (
          <Loader size="xs" />
        ) : (
          <Text size="sm" c="red">
            {t('questions.missing', { id })}
          </Text>
        )}
      </div>
      <Group gap={2} wrap="nowrap">
        <ActionIcon variant="subtle" aria-label={t('questions.moveUp', { n })} disabled={first} onClick={() => onMove(-1)}>
          <IconArrowUp size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon variant="subtle" aria-label={t('questions.moveDown', { n })} disabled={last} onClick={() => onMove(1)}>
          <IconArrowDown size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon variant="subtle" color="red" aria-label={t('questions.remove', { n })} onClick={onRemove}>
          <IconX size={16} aria-hidden />
        </ActionIcon>
      </Group>
    </Group>
  );
}

/** One part's chosen questions, in order: drag (pointer or keyboard) or move up and down. */
function PartQuestions({
  part,
  byId,
  loading,
  onChange,
  onAdd,
}: {
  part: FormPart;
  byId: Map<string, QuestionView>;
  loading: boolean;
  onChange: (q: string[]) => void;
  onAdd: () => void;
}) {
  const { t } = useTranslation('authoring-bank');
  const title = usePartTitle()(part);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onChange(arrayMove(part.q, part.q.indexOf(String(active.id)), part.q.indexOf(String(over.id))));
  };
  return (
    <Card withBorder padding="sm" component="section" aria-label={title}>
      <Group justify="space-between" mb="xs">
        <div>
          <Title order={4}>{title}</Title>
          <Text size="sm" c={part.q.length > part.allowed ? 'red' : 'dimmed'}>
            {t('questions.count', { n: part.q.length, allowed: part.allowed })} · {t('questions.marks', { mpq: part.mpq, nm: part.nm })}
          </Text>
        </div>
        <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={onAdd}>
          {t('questions.add')}
        </Button>
      </Group>
      {part.q.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('questions.empty')}
        </Text>
      ) : (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={part.q} strategy={verticalListSortingStrategy}>
            {part.q.map((id, i) => (
              <ChosenQuestion
                key={id}
                id={id}
                n={i + 1}
                question={byId.get(id)}
                loading={loading}
                first={i === 0}
                last={i === part.q.length - 1}
                onMove={(by) => onChange(arrayMove(part.q, i, i + by))}
                onRemove={() => onChange(part.q.filter((x) => x !== id))}
              />
            ))}
          </SortableContext>
        </DndContext>
      )}
    </Card>
  );
}

/**
 * The Questions tab: per part — Main, each
 * section, each sub-section — the chosen questions in order, and "Add questions", which opens
 * the question list in selection mode with the part's allowed count (floor(total marks / marks
 * per question), at most 100 by default; docs/glossary.md "Fixed values"). A question is in a set once: those in other
 * parts cannot be ticked.
 */
export function QuestionsTab({ form, update }: { form: SetForm; update: Update }) {
  const { t } = useTranslation('authoring-bank');
  const partTitle = usePartTitle();
  const parts = formParts(form);
  const { byId, loading } = useSetQuestions(formQuestionIds(form));
  const [picking, setPicking] = useState<string | null>(null);
  // At a phone's width the picker takes the whole screen.
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  const picked = parts.find((p) => p.key === picking) ?? null;
  const setPart = (key: string, q: string[]) => update((f) => withPartQuestions(f, key, q));

  return (
    <Stack>
      {form.sections.some((s) => s.ss && s.subs.length === 0) && (
        <Text size="sm" c="orange.8">
          {t('questions.subsMissing')}
        </Text>
      )}
      {parts.map((p) => (
        <PartQuestions key={p.key} part={p} byId={byId} loading={loading} onChange={(q) => setPart(p.key, q)} onAdd={() => setPicking(p.key)} />
      ))}
      <Modal
        opened={picked !== null}
        onClose={() => setPicking(null)}
        title={picked ? t('questions.pickTitle', { part: partTitle(picked) }) : ''}
        size="90rem"
        fullScreen={narrow}
      >
        {picked && (
          <Stack>
            <QuestionList
              selection={{
                selected: picked.q,
                allowed: picked.allowed,
                partName: picked.name,
                onChange: (q) => setPart(picked.key, q),
                elsewhere: parts.filter((p) => p.key !== picked.key).flatMap((p) => p.q),
              }}
            />
            <Group justify="flex-end">
              <Button onClick={() => setPicking(null)}>{t('questions.done')}</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
