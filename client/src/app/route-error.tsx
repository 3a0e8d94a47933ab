import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

/** Each route's error boundary (CONVENTIONS rule 5). */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={2}>{notFound ? t('titles.notFound') : t('errors.pageCrashed')}</Title>
        <Text>{notFound ? t('errors.notFound') : t('errors.someError')}</Text>
        <Button component={Link} to="/" w="fit-content">
          {t('errors.goHome')}
        </Button>
      </Stack>
    </Container>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={2}>{t('titles.notFound')}</Title>
        <Text>{t('errors.notFound')}</Text>
        <Button component={Link} to="/" w="fit-content">
          {t('errors.goHome')}
        </Button>
      </Stack>
    </Container>
  );
}
