/**
 * Addresses that belong to one installation, not to the code: the donation campaign the home
 * page's third slide opens and the footer's social profiles (docs/configuration.md "Client configuration"). They
 * are set when the client is built, from `VITE_…` variables (docs/configuration.md, "Client configuration";
 * `npm start` rebuilds the client when they change). Nothing is invented when one is not set: a
 * social link that is not configured is not shown, and without a campaign the donation slide
 * leads to the About page, which says where donations go.
 *
 * Read at call time (not as module constants) so that tests can set them with vi.stubEnv; in
 * the built client Vite replaces each `import.meta.env.VITE_…` with its value.
 */

/** An absolute http(s) address, or null for anything else (unset, empty, a typo, javascript:). */
export function configuredUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The external donation campaign (VITE_DONATION_URL), or null when none is configured. */
export function donationCampaignUrl(): string | null {
  return configuredUrl(import.meta.env.VITE_DONATION_URL);
}

export const SOCIAL_NETWORKS = ['facebook', 'youtube', 'instagram', 'whatsapp'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** Brand names, the same in every language. */
export const SOCIAL_LABELS: Record<SocialNetwork, string> = { facebook: 'Facebook', youtube: 'YouTube', instagram: 'Instagram', whatsapp: 'WhatsApp' };

/**
 * The configured social profiles in footer order: VITE_FACEBOOK_URL, VITE_YOUTUBE_URL,
 * VITE_INSTAGRAM_URL, VITE_WHATSAPP_URL (a channel or a wa.me link). Unset ones are left out.
 */
export function socialLinks(): { network: SocialNetwork; href: string }[] {
  const env: Record<SocialNetwork, unknown> = {
    facebook: import.meta.env.VITE_FACEBOOK_URL,
    youtube: import.meta.env.VITE_YOUTUBE_URL,
    instagram: import.meta.env.VITE_INSTAGRAM_URL,
    whatsapp: import.meta.env.VITE_WHATSAPP_URL,
  };
  return SOCIAL_NETWORKS.flatMap((network) => {
    const href = configuredUrl(env[network]);
    return href ? [{ network, href }] : [];
  });
}
