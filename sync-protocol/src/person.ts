import { z } from 'zod';
import { MSG } from './messages';
import { emailSchema, idSchema, mobileSchema, optionalEmailSchema, passwordSchema, personNameSchema } from './common';
import { fullNameSchema } from './auth';
import { permissionListSchema } from './role';

export const PERSON_STATUSES = ['ACTIVE', 'INACTIVE', 'BLOCKED'] as const;
export const personStatusSchema = z.enum(PERSON_STATUSES);

const adminMobile = z.string({ error: MSG.mobileRequired }).min(1, { error: MSG.mobileRequired }).pipe(mobileSchema);

/** POST /api/Person (admin). `r` is a role id or name; default MEMBER. */
export const personCreateSchema = z.strictObject({
  n: personNameSchema,
  m: adminMobile,
  e: optionalEmailSchema,
  password: passwordSchema.optional(),
  r: z.string().min(1).max(64).optional(),
  s: personStatusSchema.optional(),
  p: idSchema.nullable().optional(),
});

/** PUT /api/Person (admin). Changing `r` copies the role's permissions to the person (docs/api.md). */
export const personUpdateSchema = z.strictObject({
  id: idSchema,
  n: personNameSchema.optional(),
  m: adminMobile.optional(),
  /** Absent: unchanged; '' or null: removed. */
  e: z.union([z.literal('').transform(() => null), z.null(), emailSchema]).optional(),
  r: z.string().min(1).max(64).optional(),
  s: personStatusSchema.optional(),
  p: idSchema.nullable().optional(),
  permissions: permissionListSchema.optional(),
});

/** PATCH /api/Person/updatePermissionCollection. */
export const personPermissionsSchema = z.strictObject({
  id: idSchema,
  permissions: permissionListSchema,
});

/** The person search begins after more than 3 characters (the admin's Users grid waits for them too; docs/glossary.md "Fixed values"). */
export const PERSON_SEARCH_MIN_CHARS = 4;

/**
 * GET /api/Person/get — search begins after more than 3 characters (an empty query lists
 * everyone; 1 to 3 characters are refused, as the grid never sends them); page size 30 (docs/glossary.md "Fixed values").
 */
export const personSearchSchema = z.strictObject({
  strQuery: z
    .string()
    .trim()
    .max(100)
    .refine((q) => q === '' || q.length >= PERSON_SEARCH_MIN_CHARS, { error: MSG.personSearchTooShort })
    .optional()
    .default(''),
  limit: z.coerce.number().int().min(1).max(100).optional().default(30),
  offset: z.coerce.number().int().min(0).optional().default(0),
});

/** GET /api/Person/getReferrer — exact lookup by mobile (docs/api.md "Signup"). */
export const referrerLookupSchema = z.strictObject({
  strQuery: mobileSchema,
  limit: z.coerce.number().int().min(1).max(30).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  detail: z.enum(['true', 'false']).optional(),
  type: z.enum(['referrer']).optional(),
});

/** GET /api/Person/queryCustomers. */
export const customerQuerySchema = z.strictObject({
  q: z.string().trim().max(100).optional().default(''),
  l: z.coerce.number().int().min(1).max(100).optional().default(30),
  o: z.coerce.number().int().min(0).optional().default(0),
});

/**
 * How many levels below a person their referral team reaches (docs/charity.md "The referral
 * team"): the walk stops there, so that it stays cheap whatever the tree holds.
 */
export const TEAM_DEPTH = 10;

/** GET /api/person/team?q&page&size — the signed-in person's own team, paged (at most 50 a page). */
export const teamQuerySchema = z.strictObject({
  /** A part of a name, or a whole mobile number. */
  q: z.string().trim().max(100).optional().default(''),
  page: z.coerce.number().int().min(1).optional().default(1),
  size: z.coerce.number().int().min(1).max(50).optional().default(20),
});

/** A member of one's team: the mobile masked ("98******78"), depth 1 for someone one invited, 2 for someone they invited, … */
export type TeamMember = { id: string; name: string; mobile: string; joinedAt: number; depth: number };

/** GET /api/person/team's answer: a page of members, how many match, the team's size and direct referrals, the page size. */
export type TeamPage = { success: true; data: TeamMember[]; total: number; team: number; direct: number; size: number };

/** A person as the API returns it (its short names: docs/glossary.md "People"); never a password hash. */
export type PersonView = {
  id: string;
  n: string;
  m: string;
  mv: boolean;
  e: string | null;
  ev: boolean;
  r: { id: string; name: string } | null;
  s: string;
  p: string | null;
  permissions: { permission: string }[];
  paidAmount: number;
  aw: number;
  totalWithdrawn: number;
  tac: number;
  teamSize: number;
  directDownlines: number;
  curr_orbit: number;
  aadharFront: string | null;
  aadharBack: string | null;
  pan: string | null;
  pic: string | null;
  amountForNextLevel: number;
  dq: number;
  taw: number;
  iprr: number;
  co: string | null;
  createdAt: number;
};

/** PATCH /api/Person/me — the signed-in person's own name (docs/api.md "Profile"). */
export const ownProfileSchema = z.strictObject({ n: fullNameSchema });

/** POST /api/Person/me/email — asks to change one's e-mail address; a code goes to the new one. */
export const emailChangeSchema = z.strictObject({ e: emailSchema });

/** POST /api/Person/me/mobile/verify — the code sent to one's own mobile (docs/sms.md "Every code by SMS"). */
export const mobileVerifySchema = z.strictObject({
  code: z.string({ error: MSG.codeRequired }).trim().regex(/^\d{6}$/, { error: MSG.codeRequired }),
});

/** POST /api/Person/me/email/verify — the code sent to the new address. */
export const emailVerifySchema = z.strictObject({
  code: z.string({ error: MSG.codeRequired }).trim().regex(/^\d{6}$/, { error: MSG.codeRequired }),
});
