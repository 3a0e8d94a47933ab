import { expect, type Locator, type Page, test } from '@playwright/test';
import { loginAs } from './helpers';

/**
 * docs/admin.md, as the demo admin: create a permission; create a role granting permissions with the
 * buttons and by dragging; create a person with that role and reset their password; log in as
 * that person and reach what the role allows and nothing else; find every change in the
 * activity log with its old and new values.
 */

const stamp = Date.now().toString(36).toUpperCase();
const PERM = `E2E_AUDIT_${stamp}`;
const ROLE = `E2E_MANAGER_${stamp}`;
const mobile = `7${String(Date.now()).slice(-9)}`;
const NAME = `Meera Manager ${stamp.toLowerCase()}`;
const SHOWN_NAME = `Meera Manager ${stamp.toLowerCase().replace(/^./, (c) => c.toUpperCase())}`;
const NEW_PASSWORD = 'meera-5678';

/** Drags with the mouse the way a person does (dnd-kit's pointer sensor needs a few moves). */
async function drag(page: Page, from: Locator, to: Locator) {
  await from.scrollIntoViewIfNeeded();
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('nothing to drag');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2 + 12, a.y + a.height / 2 + 4, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + Math.min(b.height / 2, 40), { steps: 15 });
  await page.mouse.up();
}

test.describe.configure({ mode: 'serial' });

test('the demo admin manages permissions, roles and people, and the activity log shows it all', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await loginAs(page, 'admin');

  // 1. A permission: the name is forced uppercase.
  await page.goto('/admin/permission');
  await expect(page.getByRole('heading', { name: 'Permissions' })).toBeVisible();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  const permDialog = page.getByRole('dialog', { name: 'Add permission' });
  await permDialog.getByRole('button', { name: 'Save' }).isDisabled();
  await permDialog.getByLabel('Name').fill(PERM.toLowerCase());
  await expect(permDialog.getByLabel('Name')).toHaveValue(PERM);
  await permDialog.getByLabel('Description').fill('Reads the e2e audit trail');
  await permDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${PERM} permission created successfully`)).toBeVisible();
  await expect(page.getByText(PERM, { exact: true })).toBeVisible();

  // 2. A role: SHOP_EDITOR and the new permission granted with the buttons, CREATE_PERMISSION by dragging.
  await page.goto('/admin/role');
  const form = page.locator('section', { has: page.getByRole('heading', { name: 'New role' }) });
  await form.getByLabel('Name').fill(ROLE.toLowerCase());
  await expect(form.getByLabel('Name')).toHaveValue(ROLE);
  await form.getByLabel('Description').fill('Keeps the back office tidy');
  await page.getByTestId('perm-restricted-SHOP_EDITOR').click();
  await page.getByTestId(`perm-restricted-${PERM}`).click();
  await page.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(page.getByTestId('perm-granted-SHOP_EDITOR')).toBeVisible();
  await expect(page.getByTestId(`perm-granted-${PERM}`)).toBeVisible();
  await drag(page, page.getByTestId('perm-restricted-CREATE_PERMISSION'), page.getByTestId('picker-granted'));
  await expect(page.getByTestId('perm-granted-CREATE_PERMISSION')).toBeVisible();
  await expect(page.getByTestId('perm-restricted-CREATE_PERMISSION')).toHaveCount(0);
  // Leaving with unsaved changes asks first.
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('dialog', { name: 'Discard Changes?' })).toBeVisible();
  await page.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(/\/admin\/role$/);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Role added successfully')).toBeVisible();
  // After success the form resets and the selection clears.
  await expect(form.getByLabel('Name')).toHaveValue('');
  await page.getByRole('button', { name: `Select ${ROLE}` }).click();
  await expect(page.getByTestId('picker-granted').getByRole('button')).toHaveCount(3);

  // 3. A person with that role; the role's permissions are copied.
  await page.goto('/admin/person');
  await page.getByRole('button', { name: 'Add New Member' }).click();
  const personDialog = page.getByRole('dialog', { name: 'Add New Member' });
  const save = personDialog.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await personDialog.getByLabel('Name').fill(NAME);
  await expect(personDialog.getByLabel('Name')).toHaveValue(SHOWN_NAME);
  await personDialog.getByLabel('Mobile').fill(mobile);
  await personDialog.getByRole('button', { name: 'Generate password' }).click();
  await expect(personDialog.getByRole('textbox', { name: 'Password' })).toHaveValue(/^.{10}$/);
  await personDialog.getByText(ROLE, { exact: true }).click();
  await save.click();
  await expect(page.getByText(`${SHOWN_NAME} created successfully. Assign role and permissions`)).toBeVisible();
  const editDialog = page.getByRole('dialog', { name: `Edit ${SHOWN_NAME}` });
  await expect(editDialog.getByTestId('perm-granted-SHOP_EDITOR')).toBeVisible();
  await expect(editDialog.getByTestId('perm-granted-CREATE_PERMISSION')).toBeVisible();
  await editDialog.getByRole('button', { name: 'Close' }).first().click();

  // 4. Reset their password.
  await page.getByLabel('Search by name, mobile or e-mail').fill(mobile);
  const card = page.getByRole('listitem', { name: SHOWN_NAME });
  await expect(card).toBeVisible();
  await expect(card.getByText(ROLE)).toBeVisible();
  await card.getByRole('button', { name: `Reset password of ${SHOWN_NAME}` }).click();
  const resetDialog = page.getByRole('dialog', { name: 'Reset password' });
  const resetButton = resetDialog.getByRole('button', { name: 'Reset password' });
  await expect(resetButton).toBeDisabled();
  await resetDialog.getByRole('textbox', { name: 'New password' }).fill(NEW_PASSWORD);
  await resetButton.click();
  await expect(page.getByText('Password reset successfull')).toBeVisible();

  // 5. As that person: what the role allows, and nothing else.
  const ctx = await browser.newContext();
  const meera = await ctx.newPage();
  await meera.goto('/login');
  const panel = meera.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill(mobile);
  await panel.getByLabel(/^Password/).fill(NEW_PASSWORD);
  await panel.getByRole('button', { name: 'Login' }).click();
  await expect(meera.getByRole('button', { name: 'Logout' })).toBeVisible();
  // An account made by staff accepts the terms at its first login (docs/api.md "Terms").
  const gate = meera.getByRole('dialog', { name: 'Terms of use' });
  await gate.getByRole('checkbox', { name: /I am 18 years or older/ }).check();
  await gate.getByRole('button', { name: 'Accept and continue' }).click();
  await expect(gate).toBeHidden();
  await meera.goto('/admin');
  const menu = meera.getByRole('navigation', { name: 'Admin menu' });
  await expect(menu.getByRole('link', { name: 'Permissions' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Activity log' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'User report' })).toHaveCount(0);
  await menu.getByRole('link', { name: 'Permissions' }).click();
  await expect(meera.getByText(PERM, { exact: true })).toBeVisible();
  await expect(meera.getByRole('button', { name: 'Add', exact: true })).toBeVisible();
  await expect(meera.getByRole('button', { name: `Edit ${PERM}` })).toHaveCount(0);
  await expect(meera.getByRole('button', { name: `Delete ${PERM}` })).toHaveCount(0);
  for (const denied of ['/admin/person', '/transaction-report', '/admin/user-report']) {
    await meera.goto(denied);
    await expect(meera.getByRole('heading', { name: 'You do not have access to this page' }), denied).toBeVisible();
  }
  await ctx.close();

  // 6. Every change is in the activity log, with its old and new values.
  await page.goto('/admin/activity-log');
  await expect(page.getByRole('heading', { name: 'Activity log' })).toBeVisible();
  const rows = page.getByRole('row');
  const permRow = rows.filter({ hasText: 'permission' }).filter({ hasText: PERM }).first();
  await expect(permRow).toContainText('Created');
  const roleRow = rows.filter({ hasText: 'Created' }).filter({ hasText: ROLE }).first();
  await expect(roleRow).toContainText('Asha Admin');
  const personCreated = rows.filter({ hasText: 'Created' }).filter({ hasText: SHOWN_NAME }).first();
  await expect(personCreated).toBeVisible();
  // The password reset: an update of that person whose old and new values differ (highlighted).
  const resetRow = rows.filter({ hasText: 'Updated' }).filter({ hasText: 'reset by admin' }).first();
  await expect(resetRow).toBeVisible();
  await expect(resetRow.getByRole('group', { name: 'Old value' })).toContainText('iprr');
  await expect(resetRow.getByRole('group', { name: 'New value' })).toContainText('reset by admin');
  await expect(resetRow.locator('[data-change="added"]').first()).toBeVisible();
  // Sorting by user puts the log in another order and marks the column.
  await page.getByRole('button', { name: /^User/ }).click();
  await expect(page.getByRole('columnheader', { name: /User/ })).toHaveAttribute('aria-sort', 'ascending');
});

test('the admin layout works at 360 px: the side menu opens from the burger', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  // At 360 px the Logout button sits in the drawer: wait for the login to leave the login page instead.
  await page.goto('/login');
  const panel = page.getByRole('tabpanel', { name: 'Existing users' });
  await panel.getByLabel('Mobile or e-mail').fill('admin@example.com');
  await panel.getByLabel(/^Password/).fill('admin1234');
  await panel.getByRole('button', { name: 'Login' }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const menu = page.getByRole('navigation', { name: 'Admin menu' });
  await expect(menu.getByRole('link', { name: 'Roles' })).not.toBeInViewport();
  await page.getByRole('button', { name: 'Open the admin menu' }).click();
  await menu.getByRole('link', { name: 'Roles' }).click();
  await expect(page).toHaveURL(/\/admin\/role$/);
  await expect(page.getByRole('heading', { name: 'Roles', exact: true })).toBeVisible();
  // Nothing sticks out sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(362);
});
