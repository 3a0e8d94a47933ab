import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { renderWithApp } from '../../../testing/render';
import AboutPage from './about-page';

test('shows the introduction and the five offers', async () => {
  await renderWithApp(<AboutPage />, { namespaces: ['about'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'About Us' })).toBeInTheDocument();
  const offers = within(screen.getByRole('region', { name: 'What Pariksha Mitra gives you' })).getAllByRole('listitem');
  expect(offers.map((li) => li.querySelector('p')?.textContent)).toEqual([
    'Guaranteed success',
    'Free online question papers',
    'Free practice exams',
    'Scholarship programs',
    'Opportunity to compete regularly',
  ]);
});

test('the toggle switches between mission and vision', async () => {
  await renderWithApp(<AboutPage />, { namespaces: ['about'] });
  const panel = await screen.findByTestId('about-purpose-panel');
  expect(within(panel).getByRole('heading', { name: 'Our mission' })).toBeInTheDocument();
  expect(screen.getByRole('radio', { name: 'Mission' })).toBeChecked();

  await userEvent.click(screen.getByRole('radio', { name: 'Vision' }));
  expect(screen.getByRole('radio', { name: 'Vision' })).toBeChecked();
  expect(within(panel).getByRole('heading', { name: 'Our vision' })).toBeInTheDocument();
  expect(within(panel).queryByRole('heading', { name: 'Our mission' })).not.toBeInTheDocument();
  expect(panel).toHaveTextContent(/depends on effort/);

  await userEvent.click(screen.getByRole('radio', { name: 'Mission' }));
  expect(within(panel).getByRole('heading', { name: 'Our mission' })).toBeInTheDocument();
});

test('renders in Hindi', async () => {
  await renderWithApp(<AboutPage />, { lang: 'hi', namespaces: ['about'] });
  expect(await screen.findByRole('heading', { level: 1, name: 'हमारे बारे में' })).toBeInTheDocument();
  await userEvent.click(screen.getByRole('radio', { name: 'दृष्टि' }));
  expect(screen.getByRole('heading', { name: 'हमारी दृष्टि' })).toBeInTheDocument();
  expect(screen.getByText('सफलता की गारंटी')).toBeInTheDocument();
});
