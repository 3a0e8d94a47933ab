import { Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

type View = 'mission' | 'vision';

/** The mission/vision toggle of About Us: one text at a time. */
export function MissionVision() {
  const { t } = useTranslation('about');
  const [view, setView] = useState<View>('mission');
  const paragraphs = t(`purpose.${view}.paragraphs`, { returnObjects: true });
  return (
    <Stack component="section" aria-labelledby="about-purpose" gap="md">
      <Title order={2} id="about-purpose">
        {t('purpose.title')}
      </Title>
      <SegmentedControl
        value={view}
        onChange={setView}
        aria-label={t('purpose.toggleLabel')}
        aria-controls="about-purpose-panel"
        data={[
          { value: 'mission', label: t('purpose.mission.label') },
          { value: 'vision', label: t('purpose.vision.label') },
        ]}
        size="md"
        radius="xl"
        color="indigo"
        style={{ alignSelf: 'flex-start' }}
      />
      {/* Polite live region: screen readers hear the new text when the toggle changes it. */}
      <Paper id="about-purpose-panel" aria-live="polite" radius="lg" p="lg" bg="indigo.0" data-testid="about-purpose-panel">
        <Stack gap="sm">
          <Title order={3} size="h4" c="indigo.9">
            {t(`purpose.${view}.title`)}
          </Title>
          {paragraphs.map((p) => (
            <Text key={p}>{p}</Text>
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
