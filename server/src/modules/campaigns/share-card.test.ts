import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { AppEnv } from '../../context';
import { campaign } from '../../db/schema';
import { serveClientFiles } from '../../lib/client-files';
import { type Harness, startHarness } from '../../test/harness';
import { campaignShareCard } from './share-card';

/* A shared campaign page carries its card for messaging apps (docs/charity.md "Sharing"): public campaigns only. */

let h: Harness;
let app: Hono<AppEnv>;
beforeAll(async () => {
  h = await startHarness();
  const dir = mkdtempSync(path.join(tmpdir(), 'pm-share-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>Pariksha Mitra</title></head><body><div id="root"></div></body></html>');
  app = new Hono<AppEnv>();
  serveClientFiles(app, dir, { shareCard: campaignShareCard(h.deps.db, h.deps.config) });
});
afterAll(() => h.destroy());

test('a public campaign\'s page has its title, progress and address as Open Graph tags; a draft\'s and other pages have none', async () => {
  const page = await (await app.request('/campaigns/demo-campaign-1')).text();
  expect(page).toContain('<meta property="og:title" content="Books and board fees for Class 12 science | कक्षा 12 विज्ञान की किताबें और बोर्ड शुल्क">');
  expect(page).toMatch(/<meta property="og:description" content="₹[\d,]+ raised of ₹5,600/);
  expect(page).toContain(`<meta property="og:url" content="${h.deps.config.PUBLIC_URL}/campaigns/demo-campaign-1">`);
  expect(page.indexOf('og:title')).toBeLessThan(page.indexOf('</head>'));

  await h.deps.db.update(campaign).set({ status: 'DRAFT', titleEn: 'A "secret" <draft>' }).where(eq(campaign.id, 'demo-campaign-1'));
  try {
    const draft = await (await app.request('/campaigns/demo-campaign-1')).text();
    expect(draft).not.toContain('og:');
    expect(draft).not.toContain('secret');
  } finally {
    await h.deps.db.update(campaign).set({ status: 'APPROVED', titleEn: 'Books and board fees for Class 12 science' }).where(eq(campaign.id, 'demo-campaign-1'));
  }
  expect(await (await app.request('/campaigns')).text()).not.toContain('og:');
});

test('the card\'s text is escaped inside the attribute', async () => {
  await h.deps.db.update(campaign).set({ titleEn: 'Fees & "books" <now>' }).where(eq(campaign.id, 'demo-campaign-1'));
  try {
    const page = await (await app.request('/campaigns/demo-campaign-1')).text();
    expect(page).toContain('content="Fees &amp; &quot;books&quot; &lt;now&gt; |');
  } finally {
    await h.deps.db.update(campaign).set({ titleEn: 'Books and board fees for Class 12 science' }).where(eq(campaign.id, 'demo-campaign-1'));
  }
});
