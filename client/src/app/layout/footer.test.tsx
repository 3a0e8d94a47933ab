import { screen, within } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithApp } from '../../testing/render';
import { Footer } from './footer';

/* docs/configuration.md "Client configuration": the social buttons come from the installation's configuration, never made up. */

afterEach(() => vi.unstubAllEnvs());

test('only the configured social profiles are shown, each named in the interface language', async () => {
  vi.stubEnv('VITE_FACEBOOK_URL', 'https://www.facebook.com/parikshamitra.trust');
  vi.stubEnv('VITE_WHATSAPP_URL', 'https://whatsapp.com/channel/0029VaParikshaMitra');
  vi.stubEnv('VITE_YOUTUBE_URL', 'javascript:alert(1)');
  await renderWithApp(<Footer />);
  const group = screen.getByRole('group', { name: 'Follow us' });
  const links = within(group).getAllByRole('link');
  expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://www.facebook.com/parikshamitra.trust', 'https://whatsapp.com/channel/0029VaParikshaMitra']);
  expect(links[0]).toHaveAccessibleName('Facebook (opens in a new tab)');
  expect(links[0]).toHaveAttribute('target', '_blank');
  expect(links[0]?.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
});

test('in Hindi', async () => {
  vi.stubEnv('VITE_INSTAGRAM_URL', 'https://www.instagram.com/parikshamitra');
  await renderWithApp(<Footer />, { lang: 'hi' });
  expect(within(screen.getByRole('group', { name: 'हमें फ़ॉलो करें' })).getByRole('link')).toHaveAccessibleName('Instagram (नए टैब में खुलता है)');
});

test('nothing configured: no social buttons at all, the rest of the footer as before', async () => {
  await renderWithApp(<Footer />);
  expect(screen.queryByRole('group', { name: 'Follow us' })).toBeNull();
  expect(screen.getByRole('link', { name: 'Privacy policy' })).toBeInTheDocument();
  expect(screen.getByTestId('footer-version')).toHaveTextContent('1.0.7');
});
