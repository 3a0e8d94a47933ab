import { ActionIcon, Alert, Button, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { IconPhotoPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { uploadCampaignImage } from '../api/campaigns';
import type { CampaignImage } from '../api/types';
import { imageProblem } from '../lib/campaign-lib';

/**
 * A campaign's images: PNG or JPEG up to 5 MB, checked here by size and first bytes before the
 * upload (the server decides again, docs/charity.md "A campaign"), sent as raw bytes. An image
 * needs the campaign to exist, so a new draft is saved first (`campaignId` null: the hint).
 */
export function CampaignImages({ campaignId, images, onChange }: { campaignId: string | null; images: CampaignImage[]; onChange: (images: CampaignImage[]) => void }) {
  const { t } = useTranslation('campaign');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async (file: File | null) => {
    if (!file || !campaignId) return;
    setProblem(null);
    const bad = await imageProblem(file);
    if (bad) {
      setProblem(t(`editor.images.${bad}`, { name: file.name }));
      return;
    }
    setBusy(true);
    try {
      const { id, url } = await uploadCampaignImage(campaignId, file);
      onChange([...images, { id, url }]);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.msg : t('editor.images.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {t('editor.images.label')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('editor.images.hint')}
      </Text>
      {images.length > 0 && (
        <Group gap="xs" data-testid="editor-images">
          {images.map((image, i) => (
            <Stack key={image.id} gap={2} align="center">
              <Image src={image.url} alt={t('editor.images.alt', { n: i + 1 })} h={72} w={96} fit="cover" radius="sm" />
              <ActionIcon variant="subtle" color="red" aria-label={t('editor.images.remove', { n: i + 1 })} onClick={() => onChange(images.filter((x) => x.id !== image.id))}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Stack>
          ))}
        </Group>
      )}
      {problem && (
        <Alert color="red" variant="light" role="alert" data-testid="image-problem">
          {problem}
        </Alert>
      )}
      {campaignId ? (
        <FileButton onChange={(f) => void add(f)} accept="image/png,image/jpeg">
          {(props) => (
            <Button {...props} variant="light" leftSection={<IconPhotoPlus size={16} aria-hidden />} loading={busy} w="fit-content">
              {t('editor.images.add')}
            </Button>
          )}
        </FileButton>
      ) : (
        <Text size="sm" c="dimmed">
          {t('editor.images.saveFirst')}
        </Text>
      )}
    </Stack>
  );
}
