import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type Brand = { id: string; name: string; description: string; logo: string | null; createdAt: number; updatedAt: number };

/** GET /api/brand. */
export function getBrands(): Promise<{ success: boolean; data: Brand[] }> {
  return api('/brand');
}
export const brandsQueryOptions = () => queryOptions({ queryKey: ['admin', 'brands'], queryFn: getBrands, select: (r) => r.data });
export function useBrands() {
  return useQuery(brandsQueryOptions());
}
