import { Button, Group, MultiSelect, SimpleGrid, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QUESTION_STATUSES, QUESTION_TYPES, type QuestionStatus, type QuestionType } from '@pm/protocol/question';
import type { QuestionFilters } from '../api/question-filters';
import { TagSelect } from '../tags/tag-select';
import { hasFilters } from './list-state';
import { TranslationFilterSelect } from './translation-filter';

/** Typing settles for this long before the list asks the server (one request per pause, not per key). */
export const SEARCH_DEBOUNCE_MS = 300;

const DIFFICULTIES = ['1', '2', '3', '4', '5'] as const;

/**
 * The search box: what is typed shows at once, the filter follows once typing pauses. A change of
 * the filter from outside (back, "Clear filters") replaces the text.
 */
function SearchField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation('authoring-bank');
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  // Adjusted while rendering (React's pattern for state derived from a prop), not in an effect.
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  const commit = useDebouncedCallback(onChange, SEARCH_DEBOUNCE_MS);
  return (
    <TextInput
      label={t('list.search')}
      placeholder={t('list.searchPlaceholder')}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={text}
      maxLength={200}
      onChange={(e) => {
        setText(e.currentTarget.value);
        commit(e.currentTarget.value);
      }}
    />
  );
}

/**
 * The question list's filter panel (docs/exams.md: s, c, t, e, qt, d; docs/authoring.md adds
 * status and text search). Several values in one filter mean "any of them"; the filters together
 * mean "all of them", as the server reads them.
 */
export function QuestionFiltersPanel({ filters, onChange }: { filters: QuestionFilters; onChange: (f: QuestionFilters) => void }) {
  const { t } = useTranslation('authoring-bank');
  const set = <K extends keyof QuestionFilters>(key: K, value: QuestionFilters[K]) => onChange({ ...filters, [key]: value });
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
      <TagSelect group="s" multiple label={t('list.subject')} value={filters.s ?? []} onChange={(v) => set('s', v)} />
      <TagSelect group="c" multiple label={t('list.class')} value={filters.c ?? []} onChange={(v) => set('c', v)} />
      <TagSelect group="t" multiple label={t('list.topic')} value={filters.t ?? []} onChange={(v) => set('t', v)} />
      <TagSelect group="e" multiple label={t('list.exam')} value={filters.e ?? []} onChange={(v) => set('e', v)} />
      <MultiSelect
        label={t('list.questionType')}
        data={QUESTION_TYPES.map((qt) => ({ value: qt, label: t(`types.${qt}`) }))}
        value={filters.qt ?? []}
        onChange={(v) => set('qt', v as QuestionType[])}
        clearable
      />
      <MultiSelect
        label={t('list.difficulty')}
        data={DIFFICULTIES.map((d) => ({ value: d, label: `${d} · ${t(`difficulty.${d}`)}` }))}
        value={filters.d ?? []}
        onChange={(v) => set('d', v)}
        clearable
      />
      <MultiSelect
        label={t('list.status')}
        data={QUESTION_STATUSES.map((st) => ({ value: st, label: t(`status.${st}`) }))}
        value={filters.st ?? []}
        onChange={(v) => set('st', v as QuestionStatus[])}
        clearable
      />
      <TranslationFilterSelect value={filters.tr} onChange={(v) => set('tr', v)} />
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <div style={{ flex: 1, minWidth: 0 }}>
          <SearchField value={filters.search ?? ''} onChange={(v) => set('search', v.trim() ? v : undefined)} />
        </div>
        {hasFilters(filters) && (
          <Button variant="subtle" onClick={() => onChange({})}>
            {t('list.clearFilters')}
          </Button>
        )}
      </Group>
    </SimpleGrid>
  );
}
