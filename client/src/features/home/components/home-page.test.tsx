import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { Banner } from '@pm/protocol/banner';
import { paths } from '@/config/paths';
import { json } from '@/testing/fetch-mock';
import { renderWithApp } from '@/testing/render';
import HomePage from './home-page';

/** The network: GET /api/banner answers `banners` (the home page asks with a plain, relative fetch). */
function serveBanners(banners: Banner[]) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.origin);
    return url.pathname === '/api/banner' ? json({ success: true, data: banners }) : json({ success: false, msg: 'unexpected' }, 500);
  });
}

// No admin banners unless a test says otherwise: the built-in slides show.
beforeEach(() => {
  serveBanners([]);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** The installation's campaign (docs/configuration.md "Client configuration"). */
const CAMPAIGN = 'https://give.parikshamitra.test/campaigns/books';

const banner = (over: Partial<Banner>): Banner => ({
  id: 'b1',
  src: '/banners/b1.png',
  headline: { en: 'Scholarship test on Sunday', hi: 'रविवार को छात्रवृत्ति परीक्षा' },
  text: { en: 'Top scorers win a year of free tests.', hi: 'सबसे ज़्यादा अंक पाने वालों को साल भर के टेस्ट मुफ़्त।' },
  callToActionText: { en: 'See the exams', hi: 'परीक्षाएँ देखें' },
  linkToAction: '/exam-list',
  type: 'internal',
  active: true,
  order: 0,
  ...over,
});

test('the carousel has three slides; the first two lead to login, the third opens the campaign in a new tab', async () => {
  vi.stubEnv('VITE_DONATION_URL', CAMPAIGN);
  await renderWithApp(<HomePage />, { namespaces: ['home'] });

  expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Exam preparation that also helps another learner');
  const slides = screen.getAllByTestId('home-slide');
  expect(slides).toHaveLength(3);

  const [first, second, third] = slides as [HTMLElement, HTMLElement, HTMLElement];
  expect(within(first).getByRole('link', { name: 'Start practising' })).toHaveAttribute('href', paths.login);
  expect(within(second).getByRole('link', { name: 'Join the next exam', hidden: true })).toHaveAttribute('href', paths.login);
  const campaign = within(third).getByRole('link', { name: /Support the campaign/, hidden: true });
  expect(campaign).toHaveAttribute('href', CAMPAIGN);
  expect(campaign).toHaveAttribute('target', '_blank');
  expect(campaign.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));

  // Controls and dots have translated names.
  expect(screen.getByRole('button', { name: 'Previous slide' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Next slide' })).toBeInTheDocument();
  const dots = within(screen.getByRole('group', { name: 'Choose a slide' })).getAllByRole('button');
  expect(dots).toHaveLength(3);
  expect(dots[0]).toHaveAttribute('aria-current', 'true');
});

test.each([undefined, '', 'javascript:alert(1)', 'not a url'])('no campaign configured (%s): the third slide leads to About us, no made-up address', async (value) => {
  if (value !== undefined) vi.stubEnv('VITE_DONATION_URL', value);
  await renderWithApp(<HomePage />, { namespaces: ['home'] });
  const third = (await screen.findAllByTestId('home-slide'))[2]!;
  const link = within(third).getByRole('link', { name: 'Support the campaign', hidden: true });
  expect(link).toHaveAttribute('href', paths.about);
  expect(link).not.toHaveAttribute('target');
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

test("the admin's banners replace the built-in slides, in the UI language", async () => {
  const spy = serveBanners([
    banner({}),
    banner({ id: 'b2', headline: { en: 'Donate a test', hi: '' }, callToActionText: { en: 'Give', hi: 'दान करें' }, linkToAction: 'https://give.example.org/x', type: 'external', order: 1 }),
  ]);
  const { router } = await renderWithApp(<HomePage />, { lang: 'hi', namespaces: ['home'] });

  expect(await screen.findByRole('heading', { level: 2, name: 'रविवार को छात्रवृत्ति परीक्षा' })).toBeInTheDocument();
  const slides = screen.getAllByTestId('home-slide');
  expect(slides).toHaveLength(2);
  const [first, second] = slides as [HTMLElement, HTMLElement];
  expect(within(first).getByText('सबसे ज़्यादा अंक पाने वालों को साल भर के टेस्ट मुफ़्त।')).toBeInTheDocument();
  expect(first.querySelector('img')).toHaveAttribute('src', '/banners/b1.png');
  // A text missing in Hindi falls back to English; an external link opens in a new tab.
  expect(within(second).getByRole('heading', { name: 'Donate a test', hidden: true })).toBeInTheDocument();
  const give = within(second).getByRole('link', { name: /दान करें/, hidden: true });
  expect(give).toHaveAttribute('href', 'https://give.example.org/x');
  expect(give).toHaveAttribute('target', '_blank');
  expect(within(screen.getByRole('group', { name: 'स्लाइड चुनें' })).getAllByRole('button')).toHaveLength(2);

  await userEvent.click(within(first).getByRole('link', { name: 'परीक्षाएँ देखें' }));
  expect(router.state.location.pathname).toBe('/exam-list');
  expect(spy.mock.calls.some(([input]) => String(input).endsWith('/api/banner'))).toBe(true);
});

test('the built-in slides stay when the banners cannot be loaded', async () => {
  vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
  await renderWithApp(<HomePage />, { namespaces: ['home'] });
  expect(await screen.findAllByTestId('home-slide')).toHaveLength(3);
  await new Promise((r) => setTimeout(r, 20));
  expect(screen.getAllByTestId('home-slide')).toHaveLength(3);
  expect(screen.getByRole('link', { name: 'Start practising' })).toHaveAttribute('href', paths.login);
});

test('banners that arrive after the visitor moved on start at their first slide', async () => {
  let answer: (r: Response) => void = () => undefined;
  vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
  await renderWithApp(<HomePage />, { namespaces: ['home'] });
  await screen.findAllByTestId('home-slide');
  await userEvent.click(screen.getByRole('button', { name: 'Next slide' }));
  await userEvent.click(screen.getByRole('button', { name: 'Next slide' }));

  answer(json({ success: true, data: [banner({}), banner({ id: 'b2', headline: { en: 'Second', hi: 'दूसरी' } })] }));
  const visible = await screen.findByRole('group', { name: /Scholarship test on Sunday/ });
  expect(visible).toHaveAttribute('aria-hidden', 'false');
  expect(within(screen.getByRole('group', { name: 'Choose a slide' })).getAllByRole('button')[0]).toHaveAttribute('aria-current', 'true');
});

test('a featured campaign: the third slide opens its page on this site (docs/charity.md "API": GET /campaign/featured)', async () => {
  vi.stubEnv('VITE_DONATION_URL', CAMPAIGN);
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.origin);
    if (url.pathname === '/api/banner') return json({ success: true, data: [] });
    if (url.pathname === '/api/campaign/featured') return json({ success: true, data: { id: 'c-42', title: { en: 'Books for Asha', hi: '' } } });
    return json({ success: false, msg: 'unexpected' }, 500);
  });
  await renderWithApp(<HomePage />, { namespaces: ['home'] });
  const third = (await screen.findAllByTestId('home-slide'))[2]!;
  await vi.waitFor(() => expect(within(third).getByRole('link', { name: 'Support the campaign', hidden: true })).toHaveAttribute('href', '/campaigns/c-42'));
  expect(within(third).getByRole('link', { name: 'Support the campaign', hidden: true })).not.toHaveAttribute('target');
  expect(spy.mock.calls.map(([input]) => new URL(String(input), window.location.origin).pathname)).toEqual(['/api/banner', '/api/campaign/featured']);
});
