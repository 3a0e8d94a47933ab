import { expect, type Page, test } from '@playwright/test';

/*
 * My team on a 360 × 740 phone in Hindi (docs/charity.md "The referral team"): a person who
 * invited someone opens their profile, follows the link to My team, and sees the counts, the
 * sentence that the team earns nothing, and the person they invited with a masked mobile.
 */

test.use({ viewport: { width: 360, height: 740 } });

const PASSWORD = 'Mango-Orchard-64';

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

test('in Hindi at 360 px: the profile links to My team, which lists the invited person, masked, and says the team earns nothing', async ({ page, request }) => {
  test.setTimeout(120_000);
  const tail = String(Date.now()).slice(-8);
  const inviter = { n: `Team Leader ${tail}`, m: `93${tail}` };
  const invited = { n: `Team Member ${tail}`, m: `94${tail}` };
  const signup = async (body: Record<string, unknown>) => {
    const r = await request.post('/api/UserLogin', { data: { password: PASSWORD, confirmPassword: PASSWORD, terms: true, ...body } });
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as { id: string };
  };
  const leader = await signup({ ...inviter, noInviter: true });
  await signup({ ...invited, p: leader.id });

  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('lang', 'hi'));
  await page.goto('/login');
  const panel = page.getByRole('tabpanel').first();
  await panel.locator('input').first().fill(inviter.m);
  await panel.locator('input[type="password"]').fill(PASSWORD);
  await panel.locator('button[type="submit"]').click();
  await expect(page).not.toHaveURL(/\/login/, { timeout: 30_000 });

  await page.goto('/profile');
  await page.getByRole('link', { name: 'मेरी टीम देखें' }).click({ timeout: 30_000 });
  await expect(page).toHaveURL(/\/profile\/team$/);
  await expect(page.getByRole('heading', { level: 1, name: 'मेरी टीम' })).toBeVisible();
  await expect(page.getByTestId('team-information-only')).toContainText('केवल जानकारी के लिए');
  await expect(page.getByTestId('team-size')).toHaveText('1');
  await expect(page.getByTestId('team-direct')).toHaveText('1');
  const card = page.getByTestId('team-member');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(invited.n);
  await expect(card).toContainText(`${invited.m.slice(0, 2)}******${invited.m.slice(-2)}`);
  await expect(card).not.toContainText(invited.m);
  await expect(card).toContainText('आपके द्वारा आमंत्रित');
  await noSidewaysScroll(page);
});
