import type { notifications, notificationsStore } from '@mantine/notifications';

type NotificationData = Parameters<typeof notifications.show>[0];
type NotificationsModule = { notifications: typeof notifications; notificationsStore: typeof notificationsStore };

/**
 * Notifications sit bottom right, hide after 3 s and stack up to 4; the host that
 * shows them is app/notifications-host. Neither @mantine/notifications nor the host are part
 * of the first page (bundle budget): the first notification loads them, and the host mounts
 * when something asked for it (see `useNotificationsRequested`).
 */
export const NOTIFICATION_LIMIT = 4;

let module: Promise<NotificationsModule> | null = null;
let requested = false;
const listeners = new Set<() => void>();

function load(): Promise<NotificationsModule> {
  module ??= import('@mantine/notifications').then((m) => {
    // Keep the limit even for notifications raised before the host has mounted.
    m.notificationsStore.updateState((s) => ({ ...s, limit: NOTIFICATION_LIMIT }));
    return m;
  });
  return module;
}

function show(data: NotificationData): void {
  if (!requested) {
    requested = true;
    listeners.forEach((l) => l());
  }
  void load().then((m) => m.notifications.show(data));
}

/** For the app's lazily mounted host: subscribe to "a notification was requested". */
export function subscribeNotificationsRequested(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const notificationsRequested = (): boolean => requested;

/**
 * A notification that stays until the user acts on it (no auto-hide), such as the app update
 * prompt: its message may hold buttons. `id` lets the caller replace or hide it.
 */
export function notifyPersistent(data: NotificationData & { id: string }): void {
  show({ autoClose: false, ...data });
}
export function hideNotification(id: string): void {
  void module?.then((m) => m.notifications.hide(id));
}

export function notifySuccess(message: string): void {
  show({ color: 'green', message });
}
export function notifyError(message: string, title?: string): void {
  show({ color: 'red', message, ...(title && { title }) });
}
export function notifyWarning(message: string): void {
  show({ color: 'yellow', message });
}
