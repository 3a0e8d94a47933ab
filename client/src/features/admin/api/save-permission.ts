import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Permission } from '@pm/protocol/permission';
import { api } from '@/lib/api-client';

type Saved = { success: boolean; msg: string; data: Permission };

/** POST /api/permission (no id) or PUT /api/permission (with id). The dialog shows failures itself. */
export function savePermission(input: { id?: string | undefined; permission: string; description: string }): Promise<Saved> {
  return input.id
    ? api('/permission', { method: 'PUT', body: { id: input.id, permission: input.permission, description: input.description }, silent: true })
    : api('/permission', { method: 'POST', body: { permission: input.permission, description: input.description }, silent: true });
}

export function useSavePermission() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: savePermission, onSuccess: () => qc.invalidateQueries({ queryKey: ['admin'] }) });
}
