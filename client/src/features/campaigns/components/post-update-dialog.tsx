import { Button, Group, Modal, Stack } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '@/lib/notify';
import { campaignKeys, postCampaignUpdate } from '../api/campaigns';
import type { CampaignImage } from '../api/types';
import { CampaignImages } from './campaign-images';
import { StoryEditor } from './story-editor';

const blank = (html: string) => !html.replace(/<[^>]*>/g, '').trim();

/**
 * An update on an approved (paused, closed) campaign: what the money bought, in English and
 * Hindi, with images uploaded for it (docs/charity.md "A campaign": updates).
 */
export function PostUpdateDialog({ campaignId, opened, onClose }: { campaignId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('campaign');
  const client = useQueryClient();
  const small = useMediaQuery('(max-width: 480px)');
  const [en, setEn] = useState('');
  const [hi, setHi] = useState('');
  const [images, setImages] = useState<CampaignImage[]>([]);
  const [busy, setBusy] = useState(false);
  const post = async () => {
    setBusy(true);
    try {
      await postCampaignUpdate(campaignId, { text: { en, hi }, images: images.map((i) => i.id) });
      await client.invalidateQueries({ queryKey: campaignKeys.all });
      notifySuccess(t('updates.posted'));
      onClose();
    } catch {
      // The fetch wrapper has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('updates.title')} fullScreen={small} size="lg">
      <Stack gap="sm">
        <StoryEditor label={t('updates.textEn')} lang="en" value={en} onChange={setEn} />
        <StoryEditor label={t('updates.textHi')} lang="hi" value={hi} onChange={setHi} />
        <CampaignImages campaignId={campaignId} images={images} onChange={setImages} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('updates.cancel')}
          </Button>
          <Button onClick={() => void post()} loading={busy} disabled={blank(en)}>
            {t('updates.post')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
