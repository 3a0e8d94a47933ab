import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMessageReport } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/**
 * The profile's way to the person's grievances (docs/charity.md "Grievances"); the app layer lends
 * it to the profile page, as My donations.
 */
export default function GrievancesSection() {
  const { t } = useTranslation('grievance');
  return (
    <Paper withBorder p={{ base: 'sm', xs: 'md' }} radius="md" component="section" aria-labelledby="grievances-section">
      <Stack gap="xs">
        <Title order={2} size="h4" id="grievances-section">
          {t('section.title')}
        </Title>
        <Text size="sm">{t('section.text')}</Text>
        <Button component={Link} to={paths.grievances} variant="light" leftSection={<IconMessageReport size={16} aria-hidden />} style={{ alignSelf: 'flex-start' }}>
          {t('section.open')}
        </Button>
      </Stack>
    </Paper>
  );
}
