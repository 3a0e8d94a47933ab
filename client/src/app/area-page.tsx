import { Alert, Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Area = 'questionEditor' | 'questionList' | 'questionSet';
type TitleKey = 'questionEditor' | 'questionList' | 'questionSet';

/**
 * The landing of a guarded area whose screens later issues build (exams: issue 5; authoring and
 * back office: issue 6). It proves the guard and says what the area is for.
 */
export default function AreaPage({ area, title }: { area: Area; title: TitleKey }) {
  const { t } = useTranslation();
  return (
    <Container size="md" py="lg">
      <Stack>
        <Title order={2}>{t(`titles.${title}`)}</Title>
        <Text>{t(`area.${area}`)}</Text>
        <Alert color="blue">{t('area.guarded')}</Alert>
      </Stack>
    </Container>
  );
}
