import { CloseButton, type CloseButtonProps, createTheme, MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { lazy, type ReactNode, Suspense, useMemo, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { notificationsRequested, subscribeNotificationsRequested } from '../lib/notify';
import { contrastVariables, LUMINANCE_THRESHOLD } from './theme-contrast';

/** Shade of every colour's filled variant: indigo.7 carries white text at 5:1 (shade 6: 4.3:1). */
export const PRIMARY_SHADE = 7;

/**
 * Devanagari falls back to the self-hosted Noto Sans Devanagari, so Hindi renders offline.
 * Contrast (docs/exams.md "Accessibility", theme-contrast.ts): shade 7, and black or white text on a filled colour
 * by its luminance (`autoContrast`), so that yellow, green or orange buttons stay readable.
 */
const theme = createTheme({
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", "Helvetica Neue", Arial, sans-serif',
  headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Devanagari", Arial, sans-serif' },
  primaryColor: 'indigo',
  primaryShade: PRIMARY_SHADE,
  autoContrast: true,
  luminanceThreshold: LUMINANCE_THRESHOLD,
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
  // Every close button (dialogs, drawers, notifications, alerts) is named in the interface
  // language unless it names itself (docs/exams.md "Accessibility"): Mantine's has no accessible name of its own.
  const { t } = useTranslation('common', { useSuspense: false });
  const close = t('actions.close');
  const localized = useMemo(
    // (CloseButton's props type leaves out the button's own attributes; they pass through to it.)
    () => mergeThemeOverrides(theme, { components: { CloseButton: CloseButton.extend({ defaultProps: { 'aria-label': close } as Partial<CloseButtonProps> }) } }),
    [close],
  );
  return (
    <MantineProvider theme={localized} defaultColorScheme="light" cssVariablesResolver={contrastVariables}>
      <LazyNotifications />
      {children}
    </MantineProvider>
  );
}
