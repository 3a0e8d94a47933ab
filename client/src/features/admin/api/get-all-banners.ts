import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Banner } from '@pm/protocol/banner';
import { api } from '@/lib/api-client';

/** GET /api/banner/all — every home slide, inactive ones too. */
export function getAllBanners(): Promise<{ success: boolean; data: Banner[] }> {
  return api('/banner/all');
}
export const allBannersQueryOptions = () => queryOptions({ queryKey: ['admin', 'banners'], queryFn: getAllBanners, select: (r) => r.data });
export function useAllBanners() {
  return useQuery(allBannersQueryOptions());
}
