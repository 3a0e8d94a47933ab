import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import i18n from '../lib/i18n';

/**
 * Renders a component inside the app's providers and a memory router, in the given language.
 * Namespaces are loaded before rendering so that Suspense does not hide the form.
 */
export async function renderWithApp(
  ui: ReactElement,
  { route = '/', lang = 'en', namespaces = [] as string[], extraRoutes = [] as { path: string; element: ReactElement }[] } = {},
) {
  await i18n.changeLanguage(lang);
  if (namespaces.length) await i18n.loadNamespaces(namespaces);
  const router = createMemoryRouter(
    [{ path: route.split('?')[0] ?? '/', element: ui }, ...extraRoutes, { path: '*', element: <div data-testid="elsewhere" /> }],
    { initialEntries: [route] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  const result = render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { ...result, router };
}
