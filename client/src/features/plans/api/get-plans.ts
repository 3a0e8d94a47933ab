import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Plan } from '@pm/protocol/plan';
import { api } from '@/lib/api-client';
import { pageData } from '@/lib/page-data';

/** A plan as GET /api/plan lists it (docs/payments.md "What a plan gives"): the wire fields of sync-protocol plus its id. */
export type PlanView = Pick<Plan, 'code' | 'name' | 'total' | 'approx' | 'contents'> & { id: string };

/** GET /api/plan — public; the active plans in the order the page shows them. Silent: the page shows the failure. */
export function getPlans(): Promise<{ success: boolean; data: PlanView[] }> {
  return api('/plan', { silent: true });
}

type PlansAnswer = Awaited<ReturnType<typeof getPlans>>;

/**
 * The plans, first from the page when the server drew it with them (server/src/lib/rendered-
 * pages.ts): the first render then matches its markup. They carry the time the server read
 * them, so they are fetched again once stale like any answer (at once, if the query is made
 * again long after the page was loaded).
 */
export const plansQueryOptions = () =>
  queryOptions({
    queryKey: ['plans'],
    queryFn: getPlans,
    select: (r) => r.data,
    initialData: () => pageData('plans')?.value as PlansAnswer | undefined,
    initialDataUpdatedAt: () => pageData('plans')?.at,
  });

export function usePlans() {
  return useQuery(plansQueryOptions());
}
