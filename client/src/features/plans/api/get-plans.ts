import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Plan } from '../../../../../sync-protocol/src/plan';
import { api } from '../../../lib/api-client';

/** A plan as GET /api/plan lists it (spec §9): the wire fields of sync-protocol plus its id. */
export type PlanView = Pick<Plan, 'code' | 'name' | 'total' | 'approx' | 'contents'> & { id: string };

/** GET /api/plan — public; the active plans in the order the page shows them. Silent: the page shows the failure. */
export function getPlans(): Promise<{ success: boolean; data: PlanView[] }> {
  return api('/plan', { silent: true });
}

export const plansQueryOptions = () => queryOptions({ queryKey: ['plans'], queryFn: getPlans, select: (r) => r.data });

export function usePlans() {
  return useQuery(plansQueryOptions());
}
