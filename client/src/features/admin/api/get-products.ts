import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductView } from '@pm/protocol/plan';
import { api } from '@/lib/api-client';

/** GET /api/product — every plan, inactive ones too. */
export function getProducts(): Promise<{ success: boolean; data: ProductView[] }> {
  return api('/product');
}
export const productsQueryOptions = () => queryOptions({ queryKey: ['admin', 'products'], queryFn: getProducts, select: (r) => r.data });
export function useProducts() {
  return useQuery(productsQueryOptions());
}
