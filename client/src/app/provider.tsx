import { createTheme, MantineProvider } from '@mantine/core';
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { notificationsRequested, subscribeNotificationsRequested } from '../lib/notify';

/** Devanagari falls back to the self-hosted Noto Sans Devanagari, so Hindi renders offline. */
const theme = createTheme({
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", Arial, sans-serif' },
  primaryColor: 'indigo',
  defaultRadius: 'md',
});

const NotificationsHost = lazy(() => import('./notifications-host'));

/** Mounts the notifications host once something has been notified (lib/notify). */
function LazyNotifications() {
  const requested = useSyncExternalStore(subscribeNotificationsRequested, notificationsRequested, () => false);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  );
}

/**
 * Theme and notifications. TanStack Query's provider is not here but in the lazy layout route
 * app/query-layout (bundle budget: the first page does not need it).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <LazyNotifications />
      {children}
    </MantineProvider>
  );
}
