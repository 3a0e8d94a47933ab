import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO, openAppDb, serverDataDir } from './helpers';

/*
 * Accounts as a new person meets them on a phone (360 × 740): where a login lands, "Join Now"
 * for someone signed in, signing up without an inviter and with the terms (in Hindi), a new
 * version of the terms asked for before going on, and one's own name and e-mail on the profile
 * (docs/api.md "Signup", "Terms", "Profile", "Where people land").
 */

test.use({ viewport: { width: 360, height: 740 } });

const randomMobile = () => `7${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

/** Signs up through the API (terms accepted), under the demo learner. */
async function signUp(request: APIRequestContext, n: string, extra: Record<string, unknown> = {}) {
  const m = randomMobile();
  const password = `pw-${m}`;
  const r = await request.post('/api/UserLogin', { data: { n, m, password, p: 'demo-learner', terms: true, ...extra } });
  expect(r.status()).toBe(201);
  return { id: ((await r.json()) as { id: string }).id, mobile: m, password };
}

/** Logs in on the login page (drawn by the build, then hydrated) once the app has taken it over. */
async function logIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(username);
  await panel.getByLabel(/^Password/).fill(password);
  await panel.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** The newest 6-digit code the local outbox delivered to `recipient` (docs/configuration.md). */
async function codeSentTo(recipient: string): Promise<string> {
  const file = path.join(serverDataDir(), 'local-inbox.jsonl');
  const latest = () => {
    if (!existsSync(file)) return undefined;
    const body = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { to: string; body: string })
      .filter((m) => m.to === recipient)
      .at(-1)?.body;
    return body ? /\b(\d{6})\b/.exec(body)?.[1] : undefined;
  };
  await expect.poll(latest, { message: `no code sent to ${recipient}`, timeout: 10_000 }).toMatch(/^\d{6}$/);
  return latest()!;
}

function personRow(id: string) {
  const db = openAppDb();
  try {
    return db.prepare('select name, email, pending_email, parent_id, terms_version, terms_accepted_at from person where id = ?').get(id) as {
      name: string;
      email: string | null;
      pending_email: string | null;
      parent_id: string | null;
      terms_version: string | null;
      terms_accepted_at: number | null;
    };
  } finally {
    db.close();
  }
}

test.describe('where people land', () => {
  test('after login on the drawn login page a learner lands on Exams', async ({ page }) => {
    await logIn(page, DEMO.learner.username, DEMO.learner.password);
    await expect(page).toHaveURL(/\/exam-list$/);
  });

  test('sent to login from a page, the learner comes back to it; an address off the site is not followed', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login$/);
    const panel = page.getByRole('tabpanel', { name: 'Existing users' });
    await panel.getByLabel('Mobile or e-mail').fill(DEMO.learner.username);
    await panel.getByLabel(/^Password/).fill(DEMO.learner.password);
    await panel.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();

    // Logged out, with a remembered address that leads elsewhere: Exams, not the other site.
    await page.evaluate(() => sessionStorage.clear());
    await page.evaluate(() => localStorage.removeItem('session'));
    await page.goto('/login');
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    await page.evaluate(() => sessionStorage.setItem('redirectUrl', '//evil.example/steal'));
    await panel.getByLabel('Mobile or e-mail').fill(DEMO.learner.username);
    await panel.getByLabel(/^Password/).fill(DEMO.learner.password);
    await panel.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/exam-list$/);
  });

  test('signed in, "Join Now" on the home page leads to Exams, before and after the app takes the page over', async ({ page }) => {
    await logIn(page, DEMO.learner.username, DEMO.learner.password);
    // Before the app has hydrated the drawn home page its links are the build's (/login): the
    // login page sends a signed-in person on to Exams.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/exam-list$/);
    // After hydration the links themselves lead to Exams.
    await page.goto('/');
    const join = page.getByTestId('reason-card').first().getByRole('link', { name: 'Join Now' });
    await expect(join).toHaveAttribute('href', '/exam-list');
    await join.click();
    await expect(page).toHaveURL(/\/exam-list$/);
  });

  test('signed out, "Join Now" still leads to login', async ({ page }) => {
    await page.goto('/');
    const join = page.getByTestId('reason-card').first().getByRole('link', { name: 'Join Now' });
    await expect(join).toHaveAttribute('href', '/login');
    await join.click();
    await expect(page).toHaveURL(/\/login$/);
  });
});

test('in Hindi, a person nobody invited signs up, confirming 18+ and the terms, and lands under the trust account', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'hi'));
  const mobile = randomMobile();
  await page.goto('/login');
  await page.getByRole('tab', { name: 'नए उपयोगकर्ता' }).click();
  const panel = page.getByRole('tabpanel', { name: 'नए उपयोगकर्ता' });
  const register = panel.getByRole('button', { name: 'रजिस्टर करें' });
  await panel.getByLabel('पूरा नाम').fill('सीता देवी');
  await panel.getByLabel(/^मोबाइल नंबर/).fill(mobile);
  await panel.getByRole('textbox', { name: 'पासवर्ड', exact: true }).fill('sita-devi-42');
  await panel.getByLabel('पासवर्ड की पुष्टि करें').fill('sita-devi-42');
  // The referrer picker stays mandatory: without an answer to it, or without the terms, no Register.
  await expect(register).toBeDisabled();
  await panel.getByRole('checkbox', { name: 'मुझे किसी ने आमंत्रित नहीं किया' }).check();
  await expect(panel.getByLabel(/रेफ़रर का मोबाइल नंबर/)).toBeDisabled();
  await expect(register).toBeDisabled();
  const terms = panel.getByRole('checkbox', { name: /मेरी आयु 18 वर्ष या उससे अधिक है/ });
  await expect(panel.getByRole('link', { name: 'नियम व शर्तें' })).toHaveAttribute('href', '/tnc');
  await expect(panel.getByRole('link', { name: 'गोपनीयता नीति' })).toHaveAttribute('href', '/privacy');
  // Nothing sticks out of a 360 px screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await terms.check();
  await expect(register).toBeEnabled();
  await register.click();

  await expect(page).toHaveURL(/\/exam-list$/);
  const db = openAppDb();
  let row: { id: string; parent_id: string; terms_version: string; terms_accepted_at: number };
  try {
    row = db.prepare("select id, parent_id, terms_version, terms_accepted_at from person where mobile = '+91' || ?").get(mobile) as typeof row;
  } finally {
    db.close();
  }
  expect(row.parent_id).toBe('demo-trust');
  expect(row.terms_version).toBe('1');
  expect(row.terms_accepted_at).toBeGreaterThan(Date.now() - 120_000);
});

test('a signup without the terms is refused by the server too, naming the field, and nothing is written', async ({ request }) => {
  const m = randomMobile();
  const r = await request.post('/api/UserLogin', { data: { n: 'No Terms Person', m, password: 'no-terms-42', p: 'demo-learner' } });
  expect(r.status()).toBe(400);
  expect(((await r.json()) as { msg: string }).msg).toMatch(/^terms: /);
  const db = openAppDb();
  try {
    expect(db.prepare("select count(*) as n from person where mobile = '+91' || ?").get(m)).toEqual({ n: 0 });
  } finally {
    db.close();
  }
});

test('terms not accepted in their current version are asked for before going on, at login and at the next start', async ({ page, request }) => {
  const who = await signUp(request, 'Terms Reader');
  // As if the installation had changed its terms since this person accepted them.
  const db = openAppDb();
  try {
    db.prepare("update person set terms_version = '0' where id = ?").run(who.id);
  } finally {
    db.close();
  }
  await logIn(page, who.mobile, who.password);
  const gate = page.getByRole('dialog', { name: 'Terms of use' });
  await expect(gate).toBeVisible();
  const go = gate.getByRole('button', { name: 'Accept and continue' });
  await expect(go).toBeDisabled();
  await expect(gate.getByRole('link', { name: 'Terms & Conditions' })).toHaveAttribute('href', '/tnc');
  await gate.getByRole('checkbox', { name: /I am 18 years or older/ }).check();
  await go.click();
  await expect(gate).toBeHidden();
  await expect(page.getByText('Thank you for accepting the terms')).toBeVisible();
  expect(personRow(who.id).terms_version).toBe('1');

  // Signed in, the terms change again: the next start of the app asks before going on.
  const again = openAppDb();
  try {
    again.prepare("update person set terms_version = '0' where id = ?").run(who.id);
  } finally {
    again.close();
  }
  await page.goto('/exam-list');
  await expect(page.getByRole('dialog', { name: 'Terms of use' })).toBeVisible();
  // Logging out instead leaves without accepting.
  await page.getByRole('dialog', { name: 'Terms of use' }).getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(personRow(who.id).terms_version).toBe('0');
});

test('an account created by staff accepts the terms at its first login', async ({ page, request }) => {
  const admin = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`${DEMO.admin.username}:${DEMO.admin.password}`).toString('base64')}` },
  });
  const token = ((await admin.json()) as { token: string }).token;
  const m = randomMobile();
  const created = await request.post('/api/UserLogin/createUserOnBehalf', { headers: { authorization: `Bearer ${token}` }, data: { n: 'Placed By Staff', m } });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;
  expect(personRow(id).terms_version).toBeNull();
  // The generated password went by SMS (the local inbox).
  const file = path.join(serverDataDir(), 'local-inbox.jsonl');
  const sms = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { to: string; body: string })
    .filter((x) => x.to === `+91${m}`)
    .at(-1)!;
  const password = /the password (\S+?), then change it/.exec(sms.body)![1]!;
  await logIn(page, m, password);
  const gate = page.getByRole('dialog', { name: 'Terms of use' });
  await expect(gate).toBeVisible();
  await gate.getByRole('checkbox', { name: /I am 18 years or older/ }).check();
  await gate.getByRole('button', { name: 'Accept and continue' }).click();
  await expect(gate).toBeHidden();
  expect(personRow(id).terms_version).toBe('1');
});

test('on the profile a learner changes their name and e-mail (verified by a code first); "Change password" is titled so', async ({ page, request }) => {
  const oldEmail = `old-${randomMobile()}@example.com`;
  const newEmail = `new-${randomMobile()}@example.com`;
  const who = await signUp(request, 'Profile Person', { e: oldEmail });
  await logIn(page, who.mobile, who.password);
  await page.goto('/profile');
  const edit = page.getByRole('heading', { name: 'Edit your details' }).locator('..');

  await edit.getByLabel('Name').fill('Profile Person Renamed');
  await edit.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByText('Your profile has been updated')).toBeVisible();
  await expect(page.locator('dd', { hasText: 'Profile Person Renamed' })).toBeVisible();
  expect(personRow(who.id).name).toBe('Profile Person Renamed');

  await edit.getByLabel('New e-mail address').fill(newEmail);
  await edit.getByRole('button', { name: 'Send code' }).click();
  await expect(edit.getByTestId('email-waiting')).toBeVisible();
  // Not yet in use: the old address is still the account's (the request is handled just after its answer).
  await expect.poll(() => personRow(who.id)).toMatchObject({ email: oldEmail, pending_email: newEmail });
  await edit.getByLabel('6-digit code').fill(await codeSentTo(newEmail));
  await edit.getByRole('button', { name: 'Confirm new e-mail' }).click();
  await expect(page.getByText('Your e-mail address has been changed')).toBeVisible();
  await expect(page.locator('dd', { hasText: newEmail })).toBeVisible();
  expect(personRow(who.id)).toMatchObject({ email: newEmail, pending_email: null });
  // Nothing sticks out of a 360 px screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  await page.getByRole('link', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Change password');
  await expect(page).toHaveTitle(/^Change password \|/);
});
