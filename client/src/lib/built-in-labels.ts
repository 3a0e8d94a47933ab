import { PERMISSIONS } from '@pm/protocol/permission';
import i18n from './i18n';

/*
 * The demo's roles (fixtures/roles.json) and the product's permissions (sync-protocol
 * PERMISSIONS) are stored with English texts and upper-case keys. A reader sees them in their
 * language instead, and never the key as a role's name (docs/admin.md, Language). Roles and
 * permissions an admin created or renamed, and descriptions an admin rewrote, are the admin's
 * own words and are shown as written.
 */

type Role = { name: string; description?: string | null };
/** A translate function of any namespace (the keys here are built from data, not literals). */
type Translate = (key: string) => string;
const translate: Translate = (key) => i18n.t(key as never) as unknown as string;
const ROLE_KEYS = ['ADMIN', 'QUESTION_EDITOR', 'MEMBER', 'DONOR', 'BENEFICIARY', 'TRUST', 'TRUSTEE'] as const;
type BuiltInRole = (typeof ROLE_KEYS)[number];
const isBuiltInRole = (name: string): name is BuiltInRole => (ROLE_KEYS as readonly string[]).includes(name);

/** A role's name for the reader: a built-in role's translated name, else the name as written. */
export function roleName(role: Role | null | undefined, t: Translate = translate): string {
  if (!role) return '';
  return isBuiltInRole(role.name) ? t(`common:builtInRoles.${role.name}.name`) : role.name;
}

/** A role's description: a built-in role's translated one while it is the seeded English text. */
export function roleDescription(role: Role | null | undefined, t: Translate = translate): string {
  if (!role?.description) return '';
  if (isBuiltInRole(role.name) && role.description === (i18n.getFixedT('en', 'common') as unknown as Translate)(`builtInRoles.${role.name}.description`)) {
    return t(`common:builtInRoles.${role.name}.description`);
  }
  return role.description;
}

/** A permission's description: a product permission's translated one while it is the seeded English text. */
export function permissionDescription(p: { permission: string; description: string }, t: Translate = translate): string {
  const english = (PERMISSIONS as Record<string, string>)[p.permission];
  if (english !== undefined && p.description === english) return t(`admin:builtInPermissions.${p.permission}`);
  return p.description;
}
