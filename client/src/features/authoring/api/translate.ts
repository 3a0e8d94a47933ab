import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GenerateInDiffLangAnswer, TranslateInHtmlAnswer, TranslatorStatus } from '@pm/protocol/translate';
import { api } from '@/lib/api-client';

/*
 * Machine translation (docs/configuration.md "Machine translation"; ai/translateQuestionInHtml, generateInDiffLang).
 * Errors are shown by the caller (silent): a refused or failed translation is explained where
 * Generate is, not as a server error.
 */

/** GET /api/ai/translator: real, demo (the local demo translator) or off (not configured). */
export const translatorStatusQuery = () =>
  queryOptions({
    queryKey: ['authoring', 'translator'] as const,
    queryFn: () => api<TranslatorStatus>('/ai/translator', { background: true, silent: true }),
    staleTime: 5 * 60_000,
  });
export const useTranslatorStatus = () => useQuery(translatorStatusQuery());

/**
 * POST /api/ai/translateQuestionInHtml {lang, content: {q, o0…}}: the translation of each text,
 * read from `data[0].message.content` as JSON (docs/api.md).
 */
export async function translateQuestion(lang: string, content: Record<string, string>): Promise<{ texts: Record<string, string>; demo: boolean }> {
  const res = await api<TranslateInHtmlAnswer>('/ai/translateQuestionInHtml', { method: 'POST', body: { lang, content }, silent: true });
  const texts = JSON.parse(res.data[0]?.message.content ?? '{}') as Record<string, string>;
  return { texts, demo: res.demo };
}
export const useTranslateQuestion = () => useMutation({ mutationFn: (v: { lang: string; content: Record<string, string> }) => translateQuestion(v.lang, v.content) });

/** GET /api/question/generateInDiffLang?lcode&lname&qids: machine drafts for a selection or a set. */
export function generateInDiffLang(lcode: string, lname: string, qids: string[]): Promise<GenerateInDiffLangAnswer> {
  return api<GenerateInDiffLangAnswer>('/question/generateInDiffLang', { query: { lcode, lname, qids: qids.join(',') }, silent: true });
}
export function useGenerateInDiffLang() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { lcode: string; lname: string; qids: string[] }) => generateInDiffLang(v.lcode, v.lname, v.qids),
    onSuccess: () => client.invalidateQueries({ queryKey: ['authoring'] }),
  });
}
