import { expect, test } from '@playwright/test';
import { ACCESS } from '../server/src/access';
import { ADMIN_ROUTES, DEMO, loginAs } from './helpers';

/**
 * As the demo learner (role MEMBER, no permissions) every admin screen says in place that the
 * learner has no access (docs/admin.md, Who sees what: not the login form, they are signed in),
 * and every API that needs a permission answers 403. The API list is the server's own access
 * table, so a route added later is covered too.
 */


test('every admin route tells the signed-in demo learner they have no access, in place, with a way back', async ({ page }) => {
  await loginAs(page, 'learner');
  for (const route of ADMIN_ROUTES) {
    await page.goto(route);
    await expect(page.getByRole('heading', { name: 'You do not have access to this page' }), route).toBeVisible();
    await expect(page, route).toHaveURL(route);
    await expect(page.getByRole('link', { name: 'Go to the home page' }), route).toBeVisible();
    await expect(page.getByRole('tabpanel', { name: 'Existing users' }), route).toHaveCount(0);
  }
});

test('every API that needs a permission answers the demo learner 403 and changes nothing', async ({ request }) => {
  const login = await request.post('/api/UserLogin/login', {
    headers: { authorization: `Basic ${Buffer.from(`learner@example.com:${DEMO.learner.password}`).toString('base64')}` },
  });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const before = await request.get('/api/role', { headers: { authorization: `Bearer ${token}` } });
  expect(before.ok()).toBe(true);
  const rolesBefore = await before.json();

  const guarded = Object.entries(ACCESS).filter(([, access]) => Array.isArray(access));
  expect(guarded.length).toBeGreaterThan(30);
  for (const [key] of guarded) {
    const [method, path] = key.split(' ') as [string, string];
    const url = `/api${path.replace(/:[a-zA-Z]+/g, 'demo-admin')}`;
    const res = await request.fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(method === 'GET' || method === 'DELETE' ? {} : { data: { id: 'demo-admin', name: 'HACKED', permission: 'HACKED' } }),
    });
    expect(res.status(), key).toBe(403);
    const body = (await res.json()) as { success: boolean; msg: string };
    expect(body.success, key).toBe(false);
    expect(body.msg, key).toBeTruthy();
  }

  // Nothing changed: the roles read the same, and the demo admin still exists.
  const after = await request.get('/api/role', { headers: { authorization: `Bearer ${token}` } });
  expect(await after.json()).toEqual(rolesBefore);
});
