import { expect, test } from '@playwright/test';

test('the built app is served with the API, and the language choice persists', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Pariksha Mitra' })).toBeVisible();
  await expect(page.getByTestId('health')).toHaveText('Server is running');

  await page.getByLabel('Language').selectOption('hi');
  await expect(page.getByRole('heading', { name: 'परीक्षा मित्र' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await page.reload();
  await expect(page.getByTestId('health')).toHaveText('सर्वर चल रहा है');
});

test('client-side routes fall back to index.html; unknown API paths answer JSON 404', async ({ page, request }) => {
  const res = await page.goto('/exam-list');
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Pariksha Mitra' })).toBeVisible();
  const api = await request.get('/api/does-not-exist');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ success: false, msg: 'Not found' });
});

test('the three demo accounts log in from the browser', async ({ request }) => {
  for (const [user, pass, role] of [
    ['admin@example.com', 'admin1234', 'ADMIN'],
    ['9000000002', 'editor1234', 'QUESTION_EDITOR'],
    ['9000000003', 'learner1234', 'MEMBER'],
  ] as const) {
    const res = await request.post('/api/UserLogin/login', {
      headers: { authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` },
    });
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.r.name).toBe(role);
    expect(body.token).toBeTruthy();
  }
});
