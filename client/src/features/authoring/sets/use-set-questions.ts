import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { QuestionView } from '@pm/protocol/question';
import { getQuestionsByIds, questionKeys } from '../api/questions';

/**
 * The set's questions by id, for their text on the Questions and View tabs. Asked for by the
 * sorted ids, so that rearranging does not ask again; while a changed selection loads, the
 * questions already known stay on screen.
 */
export function useSetQuestions(ids: string[]): { byId: Map<string, QuestionView>; loading: boolean } {
  const sorted = useMemo(() => [...new Set(ids)].sort(), [ids]);
  const query = useQuery({
    queryKey: questionKeys.byIds(sorted),
    queryFn: () => getQuestionsByIds(sorted),
    select: (r) => r.data,
    enabled: sorted.length > 0,
    placeholderData: keepPreviousData,
  });
  const byId = useMemo(() => new Map((query.data ?? []).map((q) => [q.id, q])), [query.data]);
  return { byId, loading: sorted.length > 0 && query.isPending };
}
