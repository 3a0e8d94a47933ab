import { Badge, Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { QuestionView } from '@pm/protocol/question';
import { translationState } from '@pm/protocol/translate';

/*
 * docs/configuration.md "Machine translation" in the question list: a filter on the Hindi translation (missing, stale: the
 * English changed after it was made, or a machine draft no editor saved yet), and the state of
 * each question's translation beside its review status.
 */

/** The filter's values, as the server reads them (`tr=stale:hi`). */
export const TRANSLATION_FILTERS = ['missing:hi', 'stale:hi', 'draft:hi'] as const;
export type TranslationFilter = (typeof TRANSLATION_FILTERS)[number];
export const isTranslationFilter = (v: string | null | undefined): v is TranslationFilter => TRANSLATION_FILTERS.includes(v as TranslationFilter);

export function TranslationFilterSelect({ value, onChange }: { value: string | undefined; onChange: (v: TranslationFilter | undefined) => void }) {
  const { t } = useTranslation('authoring-bank');
  return (
    <Select
      label={t('translation.filter')}
      data={TRANSLATION_FILTERS.map((f) => ({ value: f, label: t(`translation.${f.split(':')[0] as 'missing' | 'stale' | 'draft'}`) }))}
      value={isTranslationFilter(value) ? value : null}
      onChange={(v) => onChange(isTranslationFilter(v) ? v : undefined)}
      clearable
    />
  );
}

/** The Hindi translation's state as badges: stale, machine draft (nothing when it is current or missing). */
export function TranslationBadges({ question }: { question: QuestionView }) {
  const { t } = useTranslation('authoring-bank');
  const s = translationState(question, 'hi');
  return (
    <>
      {s.stale && (
        <Badge color="orange" variant="filled" ml={4}>
          {t('translation.badgeStale')}
        </Badge>
      )}
      {s.draft && (
        <Badge color="grape" variant="light" ml={4}>
          {t('translation.badgeDraft')}
        </Badge>
      )}
    </>
  );
}
