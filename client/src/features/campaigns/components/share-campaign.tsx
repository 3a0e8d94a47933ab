import { Anchor, Button, Group } from '@mantine/core';
import { IconBrandWhatsapp, IconCopy, IconShare } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '@/lib/notify';
import { whatsappLink } from '../lib/campaign-lib';

const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/** Share: the device's own share sheet where the browser has one (Web Share API), else Copy link; and WhatsApp. */
export function ShareCampaign({ title, url }: { title: string; url: string }) {
  const { t } = useTranslation('campaign');
  const [copied, setCopied] = useState(false);
  const share = async () => {
    try {
      await navigator.share({ title, url });
    } catch {
      // Closed by the reader (AbortError): nothing to say.
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      notifySuccess(t('share.copied'));
    } catch {
      notifyError(t('share.copyFailed'));
    }
  };
  return (
    <Group gap="xs" data-testid="campaign-share">
      {canShare() ? (
        <Button variant="light" size="sm" leftSection={<IconShare size={16} aria-hidden />} onClick={() => void share()}>
          {t('share.share')}
        </Button>
      ) : (
        <Button variant="light" size="sm" leftSection={<IconCopy size={16} aria-hidden />} onClick={() => void copy()}>
          {copied ? t('share.copiedShort') : t('share.copy')}
        </Button>
      )}
      <Anchor href={whatsappLink(title, url)} target="_blank" rel="noopener noreferrer" size="sm" c="teal.8">
        <Group gap={4} component="span" wrap="nowrap">
          <IconBrandWhatsapp size={18} aria-hidden />
          {t('share.whatsapp')}
        </Group>
      </Anchor>
    </Group>
  );
}
