import type { TermsState } from '@pm/protocol/auth';
import { api } from '@/lib/api-client';

/**
 * GET /api/UserLogin/terms: the terms' version in force and whether the signed-in person accepted
 * it. Asked at each start of the app while signed in (app/layout/root-layout.tsx), so that a new
 * version is accepted before going on (docs/api.md "Terms"). Background: no loader, no message.
 */
export function getTerms(): Promise<TermsState & { success: boolean }> {
  return api('/UserLogin/terms', { silent: true, background: true });
}
