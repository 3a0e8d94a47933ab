import { Container, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export default function Page() {
  const { t } = useTranslation();
  return (
    <Container py="lg">
      <Title order={2}>{t('appName')}</Title>
    </Container>
  );
}
