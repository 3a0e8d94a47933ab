import { notifications } from '@mantine/notifications';

/** Notifications sit bottom right, hide after 3 s and stack up to 4 (spec §8); see app/provider. */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}
export function notifyError(message: string, title?: string): void {
  notifications.show({ color: 'red', message, ...(title && { title }) });
}
export function notifyWarning(message: string): void {
  notifications.show({ color: 'yellow', message });
}
