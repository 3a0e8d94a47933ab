import { ActionIcon, Alert, Badge, Button, Checkbox, Group, Loader, Modal, Pagination, Stack, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { QUESTION_PAGE_SIZE, type QuestionStatus, type QuestionView } from '@pm/protocol/question';
import { RichHtml } from '@/components/rich-html';
import { paths } from '@/config/paths';
import { notifySuccess } from '@/lib/notify';
import { translateServerMessage } from '@/lib/server-messages';
import type { QuestionFilters } from '../api/question-filters';
import { useDeleteQuestion, usePrefetchQuestion, useQuestions, useQuestionsCount } from '../api/questions';
import { type TagKey, tagName, useTags } from '../api/tags';
import { type Column, COLUMNS } from './columns';
import { TranslationBadges } from './translation-filter';
import { ColumnChooser, useColumns } from './column-chooser';
import { EMPTY_LIST_STATE, type ListState, pageCount, toggleSelection } from './list-state';
import { QuestionFiltersPanel } from './question-filters';
import { openEditorOverList, preloadEditorOverlay } from './editor-over-list';
import { listAsksServer, overListState } from './editor-over-list-state';
import '@/components/formula-styles';

/**
 * The row actions' tooltips wait for the pointer to rest (ms): a pointer that passes over Edit on
 * its way to a click does not start the tooltip's positioning and animation in the same moment
 * as the editor opens (docs/benchmarks.md "bench:authoring": 'pm:editor-open' at 4× CPU).
 */
const TOOLTIP_DELAY = 400;

/** Badge colours of the review states (docs/authoring.md). */
export const STATUS_COLOR: Record<QuestionStatus, string> = { PENDING: 'gray', REVIEWED: 'blue', APPROVED: 'green', REJECTED: 'red' };

/** Options are shown as A, B, C… in their order, as the learner sees them. */
export function optionLetter(keys: string[], key: string): string {
  const i = keys.indexOf(key);
  return i >= 0 && i < 26 ? String.fromCharCode(65 + i) : key;
}

/**
 * Selection mode, used by the question-set screen: a checkbox per
 * question, up to `allowed` ticked. `partName` is the section (or sub-section) being filled, null
 * for Main. `elsewhere` holds questions already in another part of the same set: a question is
 * in a set once.
 */
export type QuestionSelection = {
  selected: string[];
  allowed: number;
  partName: string | null;
  onChange: (ids: string[]) => void;
  elsewhere?: readonly string[];
};

/** Tag names by tid for one group, in the interface's language. */
function useTagNames(key: TagKey): Map<string, string> {
  const { i18n } = useTranslation();
  const tags = useTags(key);
  return useMemo(() => new Map((tags.data ?? []).map((tag) => [tag.tid, tagName(tag, i18n.language)])), [tags.data, i18n.language]);
}

function DeleteQuestion({ question, onClose }: { question: QuestionView | null; onClose: () => void }) {
  const { t } = useTranslation(['authoring-bank', 'messages']);
  const remove = useDeleteQuestion();
  const confirm = () => {
    if (!question) return;
    // A refusal (409 while a published set holds it) is shown by the api client with the
    // server's message; the row stays.
    remove.mutate(question.id, {
      onSuccess: (r) => {
        notifySuccess(translateServerMessage(r.msg));
        onClose();
      },
      onError: onClose,
    });
  };
  return (
    <Modal opened={question !== null} onClose={onClose} title={t('list.deleteTitle')} centered>
      <Stack>
        {question && <RichHtml html={question.q} style={{ maxHeight: '6em', overflow: 'hidden' }} />}
        <Text size="sm" c="dimmed">
          {t('list.deleteText')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('list.cancel')}
          </Button>
          <Button color="red" onClick={confirm} loading={remove.isPending}>
            {t('list.delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * The question bank as a table: the filter panel, pages of 25 (docs/glossary.md "Fixed values")
 * with the total from getQuestionsCount, the columns the editor chose, and per question Edit
 * (the editor) and Delete (confirmed). With `selection` it is the picker of the question-set
 * screen instead: checkboxes, the limit of the part, review states shown.
 *
 * The state (filters and page) is the caller's when given — the list page keeps it in the
 * address — else the component's own (the picker in a dialog).
 */
export function QuestionList({ state, onStateChange, selection }: { state?: ListState; onStateChange?: (s: ListState) => void; selection?: QuestionSelection }) {
  const { t, i18n } = useTranslation('authoring-bank');
  const location = useLocation();
  const [ownState, setOwnState] = useState<ListState>(EMPTY_LIST_STATE);
  const current = state ?? ownState;
  const change = onStateChange ?? setOwnState;
  const [chosenColumns, setColumns] = useColumns();
  const [refused, setRefused] = useState<{ allowed: number; part: string | null } | null>(null);
  const [toDelete, setToDelete] = useState<QuestionView | null>(null);
  const prefetch = usePrefetchQuestion();

  const page = { l: QUESTION_PAGE_SIZE, o: (current.page - 1) * QUESTION_PAGE_SIZE };
  // Not asked again while the editor is open over the list (editor-over-list): it is when it closes.
  const questions = useQuestions(current.filters, page, listAsksServer);
  const count = useQuestionsCount(current.filters, listAsksServer);
  const pages = pageCount(count.data ?? 0, QUESTION_PAGE_SIZE);
  const names = { c: useTagNames('c'), s: useTagNames('s'), t: useTagNames('t'), e: useTagNames('e') };

  // The picker always shows the review state: drafts may be chosen, but only approved questions
  // can be published (docs/authoring.md).
  const columns: Column[] = selection && !chosenColumns.includes('st') ? COLUMNS.filter((c) => c === 'st' || chosenColumns.includes(c)) : chosenColumns;
  const setFilters = (filters: QuestionFilters) => change({ filters, page: 1 });
  const number = new Intl.NumberFormat(i18n.language === 'hi' ? 'hi-IN' : 'en-IN');

  const toggle = (id: string) => {
    if (!selection) return;
    const r = toggleSelection(selection.selected, id, selection.allowed, selection.partName);
    if (r.ok) {
      setRefused(null);
      selection.onChange(r.ids);
    } else setRefused({ allowed: r.allowed, part: r.part });
  };

  const tags = (key: TagKey, tids: readonly string[]) => tids.map((tid) => names[key].get(tid) ?? tid).join(', ');
  const cell = (q: QuestionView, col: Column): ReactNode => {
    const keys = Object.keys(q.ops);
    switch (col) {
      case 'q':
        return <RichHtml html={q.q} style={{ maxHeight: '7.5em', overflow: 'hidden', minWidth: 200 }} />;
      case 'ops':
        return keys.length === 0 ? (
          <Text c="dimmed">—</Text>
        ) : (
          <Stack gap={2}>
            {keys.map((k) => (
              <Group key={k} gap={4} wrap="nowrap" align="flex-start">
                <Text fw={600} size="sm">
                  {optionLetter(keys, k)}.
                </Text>
                <RichHtml html={q.ops[k] ?? ''} inline />
              </Group>
            ))}
          </Stack>
        );
      case 'ca':
        if (q.qt === 'mcq1' || q.qt === 'mcq2') return q.ca.map((k) => optionLetter(keys, k)).join(', ');
        return <Text style={{ maxHeight: '4.5em', overflow: 'hidden' }}>{q.ca.join(' | ')}</Text>;
      case 'c':
      case 't':
      case 'e':
        return tags(col, q[col]);
      case 's':
        return q.s ? tags('s', [q.s]) : '';
      case 'd':
        return `${q.d} · ${t(`difficulty.${q.d}`)}`;
      case 'qt':
        return t(`types.${q.qt}`);
      case 'st':
        return (
          <>
            <Badge color={STATUS_COLOR[q.st]} variant="light">
              {t(`status.${q.st}`)}
            </Badge>
            <TranslationBadges question={q} />
          </>
        );
    }
  };

  const rows = questions.data ?? [];
  return (
    <Stack gap="sm">
      <QuestionFiltersPanel filters={current.filters} onChange={setFilters} />
      <Group justify="space-between" align="center">
        <Group gap="sm">
          <Text fw={500} aria-live="polite">
            {count.data !== undefined ? t('list.count', { count: count.data, formatted: number.format(count.data) }) : ''}
          </Text>
          {selection && (
            <Text size="sm" c="dimmed">
              {t('selection.chosen', {
                n: selection.selected.length,
                allowed: selection.allowed,
                part: selection.partName ?? t('selection.main'),
              })}
            </Text>
          )}
          {(questions.isFetching || count.isFetching) && <Loader size="xs" aria-label={t('list.loading')} />}
        </Group>
        <ColumnChooser value={chosenColumns} onChange={setColumns} />
      </Group>
      {refused && (
        <Alert color="orange" role="alert" withCloseButton onClose={() => setRefused(null)} closeButtonLabel={t('list.dismiss')}>
          {t('selection.limit', { n: refused.allowed, part: refused.part ?? t('selection.main') })}
        </Alert>
      )}
      {questions.isError && <Alert color="red">{t('list.loadFailed')}</Alert>}
      <Table.ScrollContainer minWidth={720}>
        <Table striped highlightOnHover verticalSpacing="xs" aria-label={t('list.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              {selection && (
                <Table.Th w={48}>
                  <VisuallyHidden>{t('list.select')}</VisuallyHidden>
                </Table.Th>
              )}
              {columns.map((c) => (
                <Table.Th key={c}>{t(`columns.${c}`)}</Table.Th>
              ))}
              {!selection && <Table.Th w={96}>{t('list.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((q) => {
              const ticked = selection?.selected.includes(q.id) ?? false;
              const inOtherPart = !ticked && (selection?.elsewhere?.includes(q.id) ?? false);
              return (
                <Table.Tr key={q.id} bg={ticked ? 'var(--mantine-primary-color-light)' : undefined} data-testid={`question-row-${q.id}`}>
                  {selection && (
                    <Table.Td>
                      <Tooltip label={t('list.inOtherPart')} disabled={!inOtherPart}>
                        <Checkbox
                          aria-label={t('list.select')}
                          checked={ticked}
                          disabled={inOtherPart}
                          onChange={() => toggle(q.id)}
                          aria-describedby={q.st !== 'APPROVED' ? `na-${q.id}` : undefined}
                        />
                      </Tooltip>
                    </Table.Td>
                  )}
                  {columns.map((c) => (
                    <Table.Td key={c}>
                      {cell(q, c)}
                      {selection && c === 'st' && q.st !== 'APPROVED' && (
                        <Text id={`na-${q.id}`} size="xs" c="orange.8">
                          {t('selection.notApproved')}
                        </Text>
                      )}
                    </Table.Td>
                  ))}
                  {!selection && (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {/* Shown when the pointer rests on the icon, not on the way to a click. */}
                        <Tooltip label={t('list.edit')} openDelay={TOOLTIP_DELAY}>
                          <ActionIcon
                            variant="subtle"
                            component={Link}
                            to={`${paths.questionEditor}?id=${encodeURIComponent(q.id)}`}
                            // On the list page, the editor opens over the list (editor-over-list).
                            state={location.pathname === paths.questionList ? overListState(location) : undefined}
                            aria-label={t('list.edit')}
                            // Start of 'pm:editor-open' (scripts/bench-authoring.ts): Edit → the question ready in the editor.
                            onClick={(e) => {
                              performance.mark('pm:editor-open-start');
                              // Over the list: drawn now, before the router's transition (editor-over-list).
                              if (location.pathname === paths.questionList && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0)
                                openEditorOverList({ pathname: paths.questionEditor, search: `?id=${encodeURIComponent(q.id)}`, hash: '', state: overListState(location), key: 'opening' });
                            }}
                            onPointerEnter={() => {
                              prefetch(q.id, q);
                              preloadEditorOverlay();
                            }}
                            onFocus={() => {
                              prefetch(q.id, q);
                              preloadEditorOverlay();
                            }}
                          >
                            <IconPencil size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('list.delete')} openDelay={TOOLTIP_DELAY}>
                          <ActionIcon variant="subtle" color="red" aria-label={t('list.delete')} onClick={() => setToDelete(q)}>
                            <IconTrash size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {questions.isPending && <Loader aria-label={t('list.loading')} />}
      {questions.isSuccess && rows.length === 0 && <Text c="dimmed">{t('list.empty')}</Text>}
      {pages > 1 && (
        <Pagination
          total={pages}
          value={Math.min(current.page, pages)}
          onChange={(p) => change({ ...current, page: p })}
          getControlProps={(control) => (control === 'previous' ? { 'aria-label': t('list.previous') } : control === 'next' ? { 'aria-label': t('list.next') } : {})}
          getItemProps={(p) => ({ 'aria-label': t('list.page', { page: p, pages }) })}
        />
      )}
      {!selection && <DeleteQuestion question={toDelete} onClose={() => setToDelete(null)} />}
    </Stack>
  );
}
