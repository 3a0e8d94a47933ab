import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';

/** Online-only data (failed requests are not retried). One client for the whole app. */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 0, refetchOnWindowFocus: false, staleTime: 30_000 }, mutations: { retry: 0 } },
});

/**
 * The layout route around every screen that may read server data through TanStack Query. It is
 * a lazy route (app/router), so the home page — the first visit — does not download TanStack
 * Query (bundle budget).
 */
export default function QueryLayout() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
