import { Group, MultiSelect } from '@mantine/core';
import { memo, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { map } from 'rxjs';
import type { SetTags } from '@pm/protocol/sync/question-set';
import type { ReplicaDatabase } from '@/db/core/database';
import { useReplicaQuery } from '@/db/learner/use-replica-query';
import type { ExamListItem } from '../hooks/use-exam-list';

/*
 * The exam list's filters by tag (docs/exams.md "Search": the local tag cache): subject, exam and
 * class, from the tags the sets carry (their questions'), labelled from the replica's `tag`
 * collection in the chosen language. Everything is on the device, so the filters work offline,
 * for guests too.
 */

export type TagFilter = { s: string[]; e: string[]; c: string[] };
export const NO_FILTER: TagFilter = { s: [], e: [], c: [] };
const GROUPS = ['s', 'e', 'c'] as const;

/** A set passes when, in every group with a choice, it carries at least one chosen tag. */
export function matchesFilter(tags: SetTags | undefined, filter: TagFilter): boolean {
  return GROUPS.every((g) => filter[g].length === 0 || filter[g].some((v) => tags?.[g].includes(v)));
}

/** Every tag's names by language, by tag id and by any of its names, from the local tag cache. */
export function useTagNames(): Map<string, Record<string, string>> | undefined {
  const query = useCallback(
    (db: ReplicaDatabase) =>
      db.tag.find().$.pipe(
        map((docs) => {
          const names = new Map<string, Record<string, string>>();
          for (const d of docs) {
            const tags = d.toJSON().tags as Record<string, string>;
            names.set(d.tid, tags);
            for (const n of Object.values(tags)) if (!names.has(n)) names.set(n, tags);
          }
          return names;
        }),
      ),
    [],
  );
  return useReplicaQuery(query).data;
}

/** Tag names by tag id (and by any of its names) in `lang`, English when it has none. */
function useTagLabels(): (value: string) => string {
  const { i18n } = useTranslation();
  const names = useTagNames();
  const lang = i18n.language === 'hi' ? 'hi' : 'en';
  return useCallback((value: string) => {
    const t = names?.get(value);
    return t?.[lang] || t?.en || value;
  }, [names, lang]);
}

/** Memoised: the list's array keeps its identity while no set changed (use-exam-list). */
export const ExamTagFilter = memo(function ExamTagFilter({ items, value, onChange }: { items: ExamListItem[]; value: TagFilter; onChange: (next: TagFilter) => void }) {
  const { t } = useTranslation('exam');
  const label = useTagLabels();
  const options = useMemo(() => {
    const out = { s: new Set<string>(), e: new Set<string>(), c: new Set<string>() };
    for (const { set } of items) for (const g of GROUPS) for (const v of set.tags?.[g] ?? []) out[g].add(v);
    return Object.fromEntries(
      GROUPS.map((g) => [g, [...out[g]].map((v) => ({ value: v, label: label(v) })).sort((a, b) => a.label.localeCompare(b.label))]),
    ) as Record<(typeof GROUPS)[number], { value: string; label: string }[]>;
  }, [items, label]);
  if (GROUPS.every((g) => options[g].length === 0)) return null;
  return (
    <Group gap="sm" align="flex-end" data-testid="exam-tag-filter" role="search" aria-label={t('filter.label')}>
      {GROUPS.map((g) =>
        options[g].length > 0 ? (
          <MultiSelect
            key={g}
            label={t(`filter.${g}`)}
            placeholder={value[g].length === 0 ? t('filter.any') : undefined}
            data={options[g]}
            value={value[g]}
            onChange={(v) => onChange({ ...value, [g]: v })}
            clearable
            searchable
            w={{ base: '100%', sm: 240 }}
            comboboxProps={{ withinPortal: true, keepMounted: false }}
          />
        ) : null,
      )}
    </Group>
  );
});
