import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';
import type {
  ImportConfirmInput,
  ImportFormat,
  ImportPreviewInput,
  ImportPreviewResponse,
  ImportResult,
} from '@pm/protocol/question-import';

/* Import and export of questions (docs/authoring.md "Import and export"). */

export function previewImport(body: ImportPreviewInput): Promise<ImportPreviewResponse> {
  return api('/question/import/preview', { method: 'POST', body, silent: true });
}

export function usePreviewImport() {
  return useMutation({ mutationFn: previewImport });
}

export function storeImport(body: ImportConfirmInput): Promise<ImportResult> {
  return api('/question/import', { method: 'POST', body, silent: true });
}

export function useStoreImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: storeImport,
    onSuccess: () => client.invalidateQueries({ queryKey: ['authoring'] }),
  });
}

/** Exports questions (by ids) or a set; resolves to how many the format could not hold. */
export async function exportQuestions(format: ImportFormat, what: { qids: string[] } | { qsid: string }): Promise<number> {
  const query: Record<string, string> = 'qids' in what ? { format, qids: what.qids.join(',') } : { format, qsid: what.qsid };
  const headers = await downloadFile('/question/export', query);
  return Number(headers.get('x-export-skipped') ?? 0);
}
