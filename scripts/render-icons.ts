/**
 * `npx tsx scripts/render-icons.ts`: draws the app icon (a question paper with a green tick, in
 * the theme's indigo, like the home page illustrations) and writes the committed files the web
 * app manifest and index.html point to:
 *
 *   client/public/favicon.svg                      the icon itself, for browser tabs
 *   client/public/icons/favicon-32.png             tab icon where SVG favicons are not supported
 *   client/public/icons/icon-{192,512}.png         manifest, purpose "any" (rounded, transparent corners)
 *   client/public/icons/icon-maskable-{192,512}.png manifest, purpose "maskable" (full bleed; the
 *                                                   drawing stays inside the central safe zone)
 *   client/public/apple-touch-icon.png             180 px, full bleed (iOS rounds it itself)
 *
 * The PNGs are screenshots of the SVG in Chromium (Debian's /usr/bin/chromium when present, as in
 * playwright.config.ts). Run it again after changing the drawing and commit the results.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const publicDir = path.join(root, 'client', 'public');
const iconsDir = path.join(publicDir, 'icons');

/** Mantine's indigo (the theme's primary colour) and the illustrations' accents. */
const INDIGO_4 = '#748ffc';
const INDIGO_6 = '#4c6ef5';
const INDIGO_8 = '#3b5bdb';
const INDIGO_1 = '#dbe4ff';
const INDIGO_3 = '#91a7ff';
const GREEN_6 = '#40c057';
const YELLOW_5 = '#fcc419';

/** The drawing in a 320 × 320 box: a question paper, one answer ticked, and a tick badge. */
const GLYPH = `
  <rect x="44" y="22" width="204" height="262" rx="22" fill="#ffffff"/>
  <rect x="74" y="56" width="104" height="18" rx="9" fill="${INDIGO_6}"/>
  <rect x="186" y="56" width="34" height="18" rx="9" fill="${YELLOW_5}"/>
  <circle cx="88" cy="118" r="12" fill="none" stroke="${INDIGO_3}" stroke-width="6"/>
  <rect x="112" y="112" width="108" height="13" rx="6.5" fill="${INDIGO_1}"/>
  <circle cx="88" cy="164" r="14" fill="${GREEN_6}"/>
  <path d="M81 164l5 5 10-10" fill="none" stroke="#ffffff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round"/>
  <rect x="112" y="158" width="86" height="13" rx="6.5" fill="${INDIGO_1}"/>
  <circle cx="88" cy="210" r="12" fill="none" stroke="${INDIGO_3}" stroke-width="6"/>
  <rect x="112" y="204" width="70" height="13" rx="6.5" fill="${INDIGO_1}"/>
  <circle cx="248" cy="248" r="58" fill="${GREEN_6}" stroke="#ffffff" stroke-width="12"/>
  <path d="M222 249l17 17 33-34" fill="none" stroke="#ffffff" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>
`;

type Variant = 'any' | 'maskable' | 'favicon';

/**
 * `any`: a rounded square with transparent corners, the drawing at 64 % of the side.
 * `maskable`: a full-bleed square; launchers cut it to a circle or squircle down to the safe
 * zone, a centred circle of 40 % radius (W3C manifest spec, "icon masks"). At 58 % of the side
 * the farthest drawn points (the badge's rim, the paper's corners) stay at about 34 % from the
 * centre.
 * `favicon`: like `any`, with the drawing at 80 % so that it reads at 16 and 32 px.
 */
function iconSvg(variant: Variant, size?: number): string {
  const glyphShare = { any: 0.64, maskable: 0.58, favicon: 0.8 }[variant];
  const scale = (512 * glyphShare) / 320;
  const offset = (512 - 320 * scale) / 2;
  const background =
    variant !== 'maskable'
      ? `<rect width="512" height="512" rx="112" fill="url(#pm-bg)"/>`
      : `<rect width="512" height="512" fill="url(#pm-bg)"/>`;
  const dims = size ? ` width="${size}" height="${size}"` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"${dims}>
  <defs>
    <linearGradient id="pm-bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${INDIGO_4}"/>
      <stop offset="1" stop-color="${INDIGO_8}"/>
    </linearGradient>
  </defs>
  ${background}
  <g transform="translate(${offset.toFixed(2)} ${offset.toFixed(2)}) scale(${scale.toFixed(4)})">${GLYPH}</g>
</svg>
`;
}

const PNGS: { file: string; size: number; variant: Variant }[] = [
  { file: path.join(iconsDir, 'icon-192.png'), size: 192, variant: 'any' },
  { file: path.join(iconsDir, 'icon-512.png'), size: 512, variant: 'any' },
  { file: path.join(iconsDir, 'icon-maskable-192.png'), size: 192, variant: 'maskable' },
  { file: path.join(iconsDir, 'icon-maskable-512.png'), size: 512, variant: 'maskable' },
  { file: path.join(iconsDir, 'favicon-32.png'), size: 32, variant: 'favicon' },
  { file: path.join(publicDir, 'apple-touch-icon.png'), size: 180, variant: 'maskable' },
];

async function main() {
  mkdirSync(iconsDir, { recursive: true });
  writeFileSync(path.join(publicDir, 'favicon.svg'), iconSvg('favicon'));

  const executablePath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  const browser = await chromium.launch({ ...(executablePath && { executablePath }), args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const { file, size, variant } of PNGS) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${iconSvg(variant, size)}</body></html>`);
      // Transparent corners, except for maskable and Apple icons, which are opaque throughout.
      await page.locator('svg').screenshot({ path: file, omitBackground: variant !== 'maskable' });
      console.log(`${path.relative(root, file)} (${size} × ${size}, ${variant})`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
