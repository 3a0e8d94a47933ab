import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ContactMessage } from '@pm/protocol/contact';
import { api } from '@/lib/api-client';

export const MESSAGE_PAGE_SIZE = 30;

/** GET /api/generic/contact-messages?q&limit&offset. */
export function getContactMessages(q: string, offset: number): Promise<{ success: boolean; data: ContactMessage[]; total: number }> {
  return api('/generic/contact-messages', { query: { q: q || undefined, limit: MESSAGE_PAGE_SIZE, offset } });
}
export const contactMessagesQueryOptions = (q: string, offset: number) =>
  queryOptions({ queryKey: ['admin', 'contactMessages', q, offset], queryFn: () => getContactMessages(q, offset), placeholderData: keepPreviousData });
export function useContactMessages(q: string, offset: number) {
  return useQuery(contactMessagesQueryOptions(q, offset));
}
