import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE /api/generic/contact-messages/{id}. */
export function deleteContactMessage(id: string): Promise<{ success: boolean; msg: string }> {
  return api(`/generic/contact-messages/${encodeURIComponent(id)}`, { method: 'DELETE' });
}
export function useDeleteContactMessage() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteContactMessage, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin', 'contactMessages'] }) });
}
