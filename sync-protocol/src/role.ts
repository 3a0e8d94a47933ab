import { z } from 'zod';
import { MSG } from './messages';
import { descriptionSchema, idSchema } from './common';
import { permissionNameSchema } from './permission';

export const roleNameSchema = z
  .string({ error: MSG.roleNameRequired })
  .trim()
  .min(1, { error: MSG.roleNameRequired })
  .max(64)
  .transform((v) => v.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9_]+$/, { error: 'Role name may hold only letters, digits and _' }));

/** Permissions in a write payload: names, or `{ permission }` items as the API returns them. */
export const permissionListSchema = z
  .array(z.union([permissionNameSchema, z.strictObject({ permission: permissionNameSchema })]))
  .max(500)
  .transform((list) => [...new Set(list.map((p) => (typeof p === 'string' ? p : p.permission)))]);

export const roleCreateSchema = z.strictObject({
  name: roleNameSchema,
  description: descriptionSchema.optional().default(''),
  permissions: permissionListSchema.optional(),
});
export const roleUpdateSchema = z.strictObject({
  id: idSchema,
  name: roleNameSchema,
  description: descriptionSchema.optional().default(''),
  permissions: permissionListSchema.optional(),
});
export const rolePermissionsSchema = z.strictObject({
  id: idSchema,
  permissions: permissionListSchema,
});

/** Roles seeded on first start (docs/admin.md); MEMBER is the default for signups. */
export const ROLES = ['ADMIN', 'QUESTION_EDITOR', 'MEMBER', 'DONOR', 'BENEFICIARY', 'TRUST', 'TRUSTEE'] as const;
export const DEFAULT_ROLE = 'MEMBER';
/**
 * The role whose holders run the platform (docs/security.md "People, roles and permissions"): only its holders change, block, delete
 * or reset the password of one of them, give or take this role, or edit it; at least one ACTIVE
 * person always holds it. The server recognises it by this name, so the role is never renamed.
 */
export const ADMIN_ROLE = 'ADMIN';
/** Roles the server refers to by name (ADMIN_ROLE, DEFAULT_ROLE): never renamed or deleted. */
export const BUILT_IN_ROLES: readonly string[] = [ADMIN_ROLE, DEFAULT_ROLE];
