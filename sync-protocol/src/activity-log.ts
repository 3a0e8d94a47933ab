import { z } from 'zod';

/** GET /api/getActivityLog — page size 50 (docs/glossary.md "Fixed values"). */
export const activityLogQuerySchema = z.strictObject({
  pageSize: z.coerce.number().int().min(1).max(200).optional().default(50),
  offset: z.coerce.number().int().min(0).optional().default(0),
  sort: z.enum(['createdAt', 'actionType', 'person', 'entityAffected']).optional().default('createdAt'),
  order: z.enum(['asc', 'desc']).optional().default('desc'),
});

export const ACTION_TYPES = ['CREATE', 'UPDATE', 'DELETE'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export type ActivityLogEntry = {
  id: string;
  createdAt: number;
  actionType: ActionType;
  person: { id: string; name: string } | null;
  entityAffected: string;
  entityId: string;
  oldValue: unknown;
  newValue: unknown;
};
