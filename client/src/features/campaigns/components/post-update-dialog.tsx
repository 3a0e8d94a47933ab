import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { campaignKeys, postCampaignUpdate } from '../api/campaigns';
import { CampaignImages } from './campaign-images';

/** An update on an approved (paused, closed) campaign: what the money bought, in English and Hindi, with images. */
export function PostUpdateDialog({ campaignId, opened, onClose }: { campaignId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('campaign');
  const client = useQueryClient();
  const [en, setEn] = useState('');
  const [hi, setHi] = useState('');
  const [images, setImages] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const post = async () => {
    setBusy(true);
    try {
      await postCampaignUpdate(campaignId, { text: { en: en.trim(), hi: hi.trim() }, images });
      await client.invalidateQueries({ queryKey: campaignKeys.all });
      notifySuccess(t('updates.posted'));
      setEn('');
      setHi('');
      setImages([]);
      onClose();
    } catch {
      // The fetch wrapper has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('updates.title')} fullScreen={typeof window !== 'undefined' && window.innerWidth < 480}>
      <Stack gap="sm">
        <Textarea label={t('updates.textEn')} lang="en" autosize minRows={3} maxLength={2000} value={en} onChange={(e) => setEn(e.currentTarget.value)} withAsterisk />
        <Textarea label={t('updates.textHi')} lang="hi" autosize minRows={3} maxLength={2000} value={hi} onChange={(e) => setHi(e.currentTarget.value)} />
        <CampaignImages campaignId={campaignId} images={images} onChange={setImages} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('updates.cancel')}
          </Button>
          <Button onClick={() => void post()} loading={busy} disabled={!en.trim()}>
            {t('updates.post')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
