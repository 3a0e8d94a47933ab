import type { PermissionName } from '@pm/protocol/permission';

/**
 * Who may open a screen (docs/admin.md, Who sees what): the one table that the route guards
 * (app/router), the navigation bar and drawer (app/layout/nav-model) and the admin side menu
 * (features/admin/lib/menu) all read, so that a menu never offers a screen its route refuses.
 * The permissions are the ones the server sends at login and checks on every API call
 * (server/src/access.ts).
 *
 * Every entry needs a login. `all`: every one of these; `any`: at least one of these.
 */
export type RouteAccess = { all?: readonly PermissionName[]; any?: readonly PermissionName[] };

/** Brands and the dashboard read their list as "any of". */
const BRANDS: readonly PermissionName[] = ['SHOP_EDITOR', 'CREATE_BRAND', 'UPDATE_BRAND', 'DELETE_BRAND'];

export const ROUTE_ACCESS = {
  receipt: {},
  examResult: {},
  // Authoring: question editors only, as GET /question lists the bank
  // and writes need QUESTION_EDITOR on the server.
  questionEditor: { all: ['QUESTION_EDITOR'] },
  questionList: { all: ['QUESTION_EDITOR'] },
  questionSet: { all: ['QUESTION_EDITOR'] },
  questionImport: { all: ['QUESTION_EDITOR'] },
  // SHOP_EDITOR; each admin screen adds its own (features/admin/lib/menu).
  admin: { all: ['SHOP_EDITOR'] },
  dashboard: { any: BRANDS },
  brands: { any: BRANDS },
  transactionReport: { all: ['VIEW_REPORT'] },
  globalEarningReport: { all: ['VIEW_REPORT'] },
  // docs/charity.md "Who does what": any signed-in person has campaigns of their own; trustees approve.
  myCampaigns: {},
  trustee: { all: ['APPROVE_CAMPAIGN'] },
  // docs/charity.md "Withdrawals": two trustees approve each withdrawal.
  withdrawals: { all: ['APPROVE_WITHDRAWAL'] },
  adminCampaigns: { all: ['CREATE_CAMPAIGN'] },
  adminTrusts: { all: ['MANAGE_TRUST'] },
  // docs/charity.md "API": the donations list and the Form 10BD export are reports.
  adminDonations: { all: ['VIEW_REPORT'] },
  // docs/charity.md "Grievances": any signed-in person raises and follows their own; staff work the queue.
  grievances: {},
  grievanceQueue: { all: ['HANDLE_GRIEVANCE'] },
} as const satisfies Record<string, RouteAccess>;

/** Whether a person holding `perms` may open a screen of `access` (a login is assumed). */
export function mayOpen(access: RouteAccess, perms: ReadonlySet<string>): boolean {
  if (access.all && !access.all.every((p) => perms.has(p))) return false;
  if (access.any && !access.any.some((p) => perms.has(p))) return false;
  return true;
}
