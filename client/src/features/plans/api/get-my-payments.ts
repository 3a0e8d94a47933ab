import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyOrder, MyPlan } from '@pm/protocol/payment';
import { api } from '@/lib/api-client';

export type MyPayments = { plan: MyPlan | null; orders: MyOrder[] };

/** GET /api/payment/my (login): the learner's active plan and orders. Silent: the section shows the failure. */
export function getMyPayments(): Promise<{ success: boolean; data: MyPayments }> {
  return api('/payment/my', { silent: true });
}

export const myPaymentsQueryOptions = () => queryOptions({ queryKey: ['payment', 'my'], queryFn: getMyPayments, select: (r) => r.data });

/** `enabled` false for a guest (the plans page asks only for a signed-in learner). */
export function useMyPayments(enabled = true) {
  return useQuery({ ...myPaymentsQueryOptions(), enabled });
}
