import { z } from 'zod';
import { emailSchema, mobileSchema, passwordSchema } from './common';
import { permissionNameSchema } from './permission';
import { roleNameSchema } from './role';
import { tagSchema } from './tag';
import { questionSchema } from './question';
import { questionSetSchema } from './question-set';
import { planSchema } from './plan';

/** Shapes of the JSON files under fixtures/, parsed when the database is seeded. */
export const permissionsFixtureSchema = z.array(
  z.strictObject({ permission: permissionNameSchema, description: z.string().min(1) }),
);
export const rolesFixtureSchema = z.array(
  z.strictObject({
    name: roleNameSchema,
    description: z.string().min(1),
    /** `"*"` grants every permission. */
    permissions: z.union([z.literal('*'), z.array(permissionNameSchema)]),
  }),
);
export const accountsFixtureSchema = z.array(
  z.strictObject({
    id: z.string().min(1),
    n: z.string().min(1),
    m: mobileSchema,
    e: emailSchema,
    password: passwordSchema,
    r: roleNameSchema,
    p: z.string().nullable(),
  }),
);
export const tagsFixtureSchema = z.array(tagSchema);
export const questionsFixtureSchema = z.array(questionSchema);
export const questionSetsFixtureSchema = z.array(questionSetSchema);
export const plansFixtureSchema = z.array(planSchema);
