import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { trustSchema } from '@pm/protocol/campaign';
import { api } from '@/lib/api-client';

/** The trust routes (docs/charity.md "Trusts"; MANAGE_TRUST). */
export type TrustSettings = z.input<typeof trustSchema>;
export type Trust = TrustSettings & { id: string; createdAt: number; updatedAt: number };

export const trustKeys = { all: ['trusts'] as const };

export function useTrusts() {
  return useQuery({ queryKey: trustKeys.all, queryFn: () => api<{ success: boolean; data: Trust[] }>('/trust', { silent: true }), select: (r) => r.data });
}

/** POST /trust (new) or PUT /trust/:id: the whole settings. */
export function saveTrust(id: string | null, settings: TrustSettings): Promise<{ success: boolean; msg: string; data: Trust }> {
  return id ? api(`/trust/${encodeURIComponent(id)}`, { method: 'PUT', body: settings }) : api('/trust', { method: 'POST', body: settings });
}
