import { Alert } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Whether the browser says it is online, followed as it changes. */
export function useOnline(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

/** Offline, the campaign pages are the copies last seen (the service worker's, vite.config.ts): said once, above them. */
export function OfflineNote() {
  const { t } = useTranslation('campaign');
  const online = useOnline();
  if (online) return null;
  return (
    <Alert color="gray" variant="light" icon={<IconCloudOff size={18} aria-hidden />} role="status" data-testid="campaigns-offline">
      {t('offline')}
    </Alert>
  );
}
