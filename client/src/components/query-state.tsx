import { Alert, Center, Loader } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';

/**
 * What a screen shows for one server read: a loader while it is on its way, an alert titled
 * `failedTitle` with the server's own message (or a general one) when it failed, and otherwise
 * `children` with the data. One place for the three states every screen of the app repeats.
 */
export function QueryState<T>({ query, failedTitle, children }: { query: UseQueryResult<T>; failedTitle: string; children: (data: T) => ReactNode }) {
  const { t } = useTranslation('common');
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('actions.loading')} />
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" variant="light" title={failedTitle} role="alert">
        {query.error instanceof ApiError ? query.error.msg : t('errors.someError')}
      </Alert>
    );
  }
  return <>{children(query.data)}</>;
}
