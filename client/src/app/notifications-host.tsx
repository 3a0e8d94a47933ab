import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { NOTIFICATION_LIMIT } from '../lib/notify';

/** Notifications: bottom right, hidden after 3 s, at most 4 stacked (docs/glossary.md "Fixed values"). Loaded with the first notification. */
export default function NotificationsHost() {
  return <Notifications position="bottom-right" autoClose={3000} limit={NOTIFICATION_LIMIT} />;
}
