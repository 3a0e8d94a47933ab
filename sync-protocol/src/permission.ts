import { z } from 'zod';
import { MSG } from './messages';
import { descriptionSchema, idSchema } from './common';

/** Permission names are stored uppercase (docs/glossary.md "Fixed values"). */
export const permissionNameSchema = z
  .string({ error: MSG.permissionNameRequired })
  .trim()
  .min(1, { error: MSG.permissionNameRequired })
  .max(64)
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9_]+$/, { error: 'Permission name may hold only letters, digits and _' }));

export const permissionCreateSchema = z.strictObject({
  permission: permissionNameSchema,
  description: descriptionSchema.optional().default(''),
});
export const permissionUpdateSchema = z.strictObject({
  id: idSchema,
  permission: permissionNameSchema,
  description: descriptionSchema.optional().default(''),
});

export const permissionSchema = z.object({
  id: z.string(),
  permission: z.string(),
  description: z.string(),
});
export type Permission = z.infer<typeof permissionSchema>;

/**
 * Every permission the product checks. The spec names the first fourteen (docs/api.md); the role, report,
 * activity-log and campaign (docs/charity.md "Who does what") permissions are ours, because every route must be guarded on the server.
 */
export const PERMISSIONS = {
  CREATE_PERMISSION: 'Create permissions',
  UPDATE_PERMISSION: 'Edit permissions',
  DELETE_PERMISSION: 'Delete permissions',
  CREATE_ORDER: 'Create orders at the sale point',
  UPDATE_ORDER: 'Edit orders',
  DELETE_ORDER: 'Delete orders',
  QUESTION_EDITOR: 'Write questions and assemble question sets',
  SHOP_EDITOR: 'Open the admin area and read the activity log',
  CREATE_BRAND: 'Create brands',
  UPDATE_BRAND: 'Edit brands',
  DELETE_BRAND: 'Delete brands',
  CREATE_PERSON: 'Create people',
  UPDATE_PERSON: 'Search and edit people, reset their passwords and grant permissions',
  DELETE_PERSON: 'Delete people',
  CREATE_ROLE: 'Create roles',
  UPDATE_ROLE: 'Edit roles and their permissions',
  DELETE_ROLE: 'Delete roles',
  VIEW_REPORT: 'Read sale, transaction and earning reports',
  CREATE_CAMPAIGN: "Draft and edit campaigns on a beneficiary's behalf, post their updates and choose the featured campaign",
  APPROVE_CAMPAIGN: 'Approve, refuse, pause, resume and close campaigns',
  APPROVE_WITHDRAWAL: "Approve withdrawals from campaigns (two trustees each), see the withdrawals' queue, check and retry their payouts",
  MANAGE_TRUST: 'Set up trusts: the name, address, registration, PAN and 80G numbers printed on receipts, and the share kept',
} as const;
export type PermissionName = keyof typeof PERMISSIONS;
