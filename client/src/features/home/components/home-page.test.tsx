import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { DONATION_CAMPAIGN_URL, paths } from '../../../config/paths';
import { renderWithApp } from '../../../testing/render';
import HomePage from './home-page';

test('the carousel has three slides; the first two lead to login, the third opens the campaign in a new tab', async () => {
  await renderWithApp(<HomePage />, { namespaces: ['home'] });

  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Exam preparation that also helps another learner');
  const slides = screen.getAllByTestId('home-slide');
  expect(slides).toHaveLength(3);

  const [first, second, third] = slides as [HTMLElement, HTMLElement, HTMLElement];
  expect(within(first).getByRole('link', { name: 'Start practising' })).toHaveAttribute('href', paths.login);
  expect(within(second).getByRole('link', { name: 'Join the next exam', hidden: true })).toHaveAttribute('href', paths.login);
  const campaign = within(third).getByRole('link', { name: /Support the campaign/, hidden: true });
  expect(campaign).toHaveAttribute('href', DONATION_CAMPAIGN_URL);
  expect(campaign).toHaveAttribute('target', '_blank');
  expect(campaign.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));

  // Controls and dots have translated names.
  expect(screen.getByRole('button', { name: 'Previous slide' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Next slide' })).toBeInTheDocument();
  const dots = within(screen.getByRole('group', { name: 'Choose a slide' })).getAllByRole('button');
  expect(dots).toHaveLength(3);
  expect(dots[0]).toHaveAttribute('aria-current', 'true');
});

test('three reason cards each have a Join Now link to /login', async () => {
  await renderWithApp(<HomePage />, { namespaces: ['home'] });
  const cards = await screen.findAllByTestId('reason-card');
  expect(cards).toHaveLength(3);
  for (const card of cards) expect(within(card).getByRole('link', { name: 'Join Now' })).toHaveAttribute('href', paths.login);
});

test('a call to action navigates to /login', async () => {
  const { router } = await renderWithApp(<HomePage />, { namespaces: ['home'] });
  const [card] = await screen.findAllByTestId('reason-card');
  await userEvent.click(within(card!).getByRole('link', { name: 'Join Now' }));
  expect(router.state.location.pathname).toBe(paths.login);
});

test('renders in Hindi', async () => {
  await renderWithApp(<HomePage />, { lang: 'hi', namespaces: ['home'] });
  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('परीक्षा की ऐसी तैयारी, जो किसी और विद्यार्थी का भी सहारा बने');
  expect(screen.getAllByRole('link', { name: 'अभी जुड़ें' })).toHaveLength(3);
  expect(screen.getByRole('button', { name: 'अगली स्लाइड' })).toBeInTheDocument();
});

test('the carousel wraps around backward and forward, by buttons and arrow keys', async () => {
  await renderWithApp(<HomePage />, { namespaces: ['home'] });
  const dots = () => within(screen.getByRole('group', { name: 'Choose a slide' })).getAllByRole('button');
  await screen.findAllByTestId('home-slide');
  await userEvent.click(screen.getByRole('button', { name: 'Previous slide' }));
  expect(dots()[2]).toHaveAttribute('aria-current', 'true');
  await userEvent.click(screen.getByRole('button', { name: 'Next slide' }));
  expect(dots()[0]).toHaveAttribute('aria-current', 'true');
  screen.getByRole('button', { name: 'Next slide' }).focus();
  await userEvent.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
  expect(dots()[0]).toHaveAttribute('aria-current', 'true');
  // Only the visible slide can be reached by keyboard or screen reader.
  const slides = screen.getAllByTestId('home-slide');
  expect(slides.filter((s) => s.getAttribute('aria-hidden') === 'false')).toHaveLength(1);
});
