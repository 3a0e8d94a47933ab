import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { DonationView } from '@pm/protocol/donation';
import type { GrievancePerson, GrievanceRow, GrievanceStatus, GrievanceSubject, GrievanceView } from '@pm/protocol/grievance';
import { api } from '@/lib/api-client';

/**
 * The grievance routes of docs/charity.md "Grievances". Reads are silent: each screen shows its
 * own failure; writes show the server's reason through the fetch wrapper.
 */
type One<T> = { success: boolean; msg?: string; data: T };
type Many<T> = { success: boolean; data: T[]; total?: number };

export type QueueQuery = { status?: GrievanceStatus | undefined; q?: string | undefined; page: number };

export const grievanceKeys = {
  all: ['grievances'] as const,
  mine: ['grievances', 'mine'] as const,
  one: (id: string) => ['grievances', 'one', id] as const,
  queue: (query: QueueQuery) => ['grievances', 'queue', query] as const,
  handlers: ['grievances', 'handlers'] as const,
};

export function useMyGrievances() {
  return useQuery({ queryKey: grievanceKeys.mine, queryFn: () => api<Many<GrievanceRow>>('/grievance/mine', { silent: true }), select: (r) => r.data });
}

export function useGrievance(id: string) {
  return useQuery({ queryKey: grievanceKeys.one(id), queryFn: () => api<One<GrievanceView>>(`/grievance/${encodeURIComponent(id)}`, { silent: true }), select: (r) => r.data });
}

export const queueQueryOptions = (query: QueueQuery) =>
  queryOptions({
    queryKey: grievanceKeys.queue(query),
    queryFn: () => api<Many<GrievanceRow> & { total: number }>('/grievance/queue', { query: { status: query.status, q: query.q || undefined, page: query.page }, silent: true }),
    placeholderData: keepPreviousData,
  });

export function useGrievanceQueue(query: QueueQuery) {
  return useQuery(queueQueryOptions(query));
}

/** Whom a grievance may be assigned to (staff only). */
export function useGrievanceHandlers(enabled: boolean) {
  return useQuery({ queryKey: grievanceKeys.handlers, queryFn: () => api<Many<GrievancePerson>>('/grievance/handlers', { silent: true }), select: (r) => r.data, enabled });
}

/** The signed-in person's donations, to choose the one a grievance is about. */
export function useDonationsToChoose(enabled: boolean) {
  return useQuery({ queryKey: ['donation', 'mine'], queryFn: () => api<One<DonationView[]>>('/donation/mine', { silent: true }), select: (r) => r.data, enabled });
}

export type GrievanceInput = { subject: GrievanceSubject; subjectId?: string; title: string; text: string };

export const raiseGrievance = (input: GrievanceInput) => api<One<GrievanceView>>('/grievance', { method: 'POST', body: input });

const at = (id: string, what: string) => `/grievance/${encodeURIComponent(id)}/${what}`;

export const postGrievanceMessage = (id: string, text: string) => api<One<GrievanceView>>(at(id, 'messages'), { method: 'POST', body: { text } });
export const reopenGrievance = (id: string, text?: string) => api<One<GrievanceView>>(at(id, 'reopen'), { method: 'POST', body: text ? { text } : {} });
export const resolveGrievance = (id: string, note: string) => api<One<GrievanceView>>(at(id, 'resolve'), { method: 'POST', body: { note } });
export const assignGrievance = (id: string, ownerId: string) => api<One<GrievanceView>>(at(id, 'assign'), { method: 'POST', body: { ownerId } });
