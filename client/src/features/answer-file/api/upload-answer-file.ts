import { useMutation } from '@tanstack/react-query';
import type { AnswerFileUploadResponse } from '@pm/protocol/answer-file';
import { api } from '@/lib/api-client';

/**
 * POST /api/answer-file {file} (docs/answer-file.md): the file's text exactly as saved, without a login
 * (the file proves whose test it is). The page shows refusals itself.
 */
export function uploadAnswerFile(file: string): Promise<AnswerFileUploadResponse> {
  return api('/answer-file', { method: 'POST', body: { file }, skipAuth: true, silent: true });
}

export function useUploadAnswerFile() {
  return useMutation({ mutationFn: uploadAnswerFile, networkMode: 'always' });
}
