import type { PermissionName } from '@pm/protocol/permission';
import { ROUTE_ACCESS, mayOpen as mayOpenAccess } from '@/config/route-access';

/**
 * The admin side menu. The spec lists shop-style entries too (sale point,
 * my store, store settings, category, attributes, section editor, delivery, pickup point); this
 * product sells plans, not goods, so those are left out (docs/admin.md).
 *
 * `any`: the entry shows (and its route lets in) a person holding any one of these;
 * `all`: every one of these. The admin area itself needs SHOP_EDITOR.
 */
export type AdminMenuEntry = {
  key: AdminMenuKey;
  /** Path below /admin ('' is the dashboard). */
  path: string;
  any?: readonly PermissionName[];
  all?: readonly PermissionName[];
};

export type AdminMenuKey =
  | 'dashboard'
  | 'product'
  | 'brand'
  | 'banner'
  | 'permission'
  | 'role'
  | 'userReport'
  | 'person'
  | 'staticPages'
  | 'order'
  | 'contactMessages'
  | 'campaigns'
  | 'trusts'
  | 'donations'
  | 'activityLog';

export const ADMIN_MENU: readonly AdminMenuEntry[] = [
  // Brands and the dashboard read the list as "any of".
  { key: 'dashboard', path: '', ...ROUTE_ACCESS.dashboard },
  { key: 'product', path: 'product', all: ['SHOP_EDITOR'] },
  { key: 'brand', path: 'brand', ...ROUTE_ACCESS.brands },
  { key: 'banner', path: 'banner', all: ['SHOP_EDITOR'] },
  // Permission and role carry an empty permission list (a login is enough to look;
  // every change needs its own permission, on the server too).
  { key: 'permission', path: 'permission' },
  { key: 'role', path: 'role' },
  { key: 'userReport', path: 'user-report', all: ['VIEW_REPORT'] },
  // Person: CREATE_PERSON, UPDATE_PERSON, DELETE_PERSON (a guard needs every listed one).
  { key: 'person', path: 'person', all: ['CREATE_PERSON', 'UPDATE_PERSON', 'DELETE_PERSON'] },
  { key: 'staticPages', path: 'static-pages', all: ['SHOP_EDITOR'] },
  { key: 'order', path: 'order', all: ['SHOP_EDITOR'] },
  { key: 'contactMessages', path: 'contact-messages', all: ['SHOP_EDITOR'] },
  // docs/charity.md "Who does what": staff choose the campaign the home page shows.
  { key: 'campaigns', path: 'campaigns', ...ROUTE_ACCESS.adminCampaigns },
  // docs/charity.md "Trusts": what receipts print and the share kept.
  { key: 'trusts', path: 'trusts', ...ROUTE_ACCESS.adminTrusts },
  { key: 'donations', path: 'donations', ...ROUTE_ACCESS.adminDonations },
  { key: 'activityLog', path: 'activity-log', all: ['SHOP_EDITOR'] },
];

/** Whether a person holding `perms` may open the entry (config/route-access, one rule for menus and guards). */
export function mayOpen(entry: Pick<AdminMenuEntry, 'any' | 'all'>, perms: ReadonlySet<string>): boolean {
  return mayOpenAccess(entry, perms);
}

export const adminPath = (path: string): string => (path ? `/admin/${path}` : '/admin');
