import { Button } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShareRefusal } from '@/lib/bundles';
import { notifyError, notifySuccess } from '@/lib/notify';

/**
 * "Share this test" (docs/live-tests.md "A test handed from phone to phone"): the server's signed
 * file of the set, to the phone's share sheet or, where it takes no files, as a download. Needs
 * the network once, here: the server signs what it hands out.
 */
export function ShareTestButton({ qsid, title }: { qsid: string; title: string }) {
  const { t } = useTranslation('exam');
  const [busy, setBusy] = useState(false);
  const share = async () => {
    setBusy(true);
    try {
      // The bundle code loads only now, not with the test's page.
      const { shareBundle } = await import('@/lib/bundles');
      const how = await shareBundle(qsid, t('share.shareTitle', { title }));
      if (how === 'shared') notifySuccess(t('share.shared'));
      if (how === 'saved') notifySuccess(t('share.saved', { name: `${qsid}.pmtest` }));
    } catch (err) {
      const reason = err instanceof Error && err.name === 'ShareError' ? (err as Error & { reason: ShareRefusal }).reason : 'failed';
      notifyError(t(`share.refused.${reason}`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" leftSection={<IconShare size={16} aria-hidden />} loading={busy} onClick={() => void share()}>
      {t('share.button')}
    </Button>
  );
}
