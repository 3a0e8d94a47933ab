import { z } from 'zod';
import { emailSchema, idSchema, mobileSchema } from './common';
import { MSG } from './messages';
import { hasUnsafeChars } from './text-rules';

/*
 * Grievances and reports of campaigns (docs/charity.md "Grievances"): the wire of both, shared by
 * the server and the client.
 */

export const GRIEVANCE_SUBJECTS = ['DONATION', 'CAMPAIGN', 'WITHDRAWAL', 'ACCOUNT', 'OTHER'] as const;
export type GrievanceSubject = (typeof GRIEVANCE_SUBJECTS)[number];
export const GRIEVANCE_STATUSES = ['OPEN', 'ANSWERED', 'RESOLVED'] as const;
export type GrievanceStatus = (typeof GRIEVANCE_STATUSES)[number];
export const REPORT_REASONS = ['FRAUD', 'WRONG_INFO', 'OFFENSIVE', 'OTHER'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** The limits of the texts (docs/charity.md "Grievances"). */
export const GRIEVANCE_TITLE_MAX = 120;
export const GRIEVANCE_TEXT_MAX = 5000;
export const REPORT_TEXT_MAX = 2000;
export const GRIEVANCE_PAGE_SIZE = 20;
/** A resolved grievance may be reopened by its raiser for this long after it was resolved. */
export const GRIEVANCE_REOPEN_DAYS = 30;

const plainLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !hasUnsafeChars(v), { error: MSG.unsafeCharacters });
const plainText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !hasUnsafeChars(v, { multiline: true }), { error: MSG.unsafeCharacters });

/** POST /api/grievance. */
export const grievanceRaiseSchema = z.strictObject({
  subject: z.enum(GRIEVANCE_SUBJECTS),
  subjectId: idSchema.optional(),
  title: plainLine(GRIEVANCE_TITLE_MAX),
  text: plainText(GRIEVANCE_TEXT_MAX),
});
export type GrievanceRaise = z.output<typeof grievanceRaiseSchema>;

/** POST /api/grievance/:id/messages. */
export const grievanceMessageSchema = z.strictObject({ text: plainText(GRIEVANCE_TEXT_MAX) });
/** POST /api/grievance/:id/reopen: an optional word on why. */
export const grievanceReopenSchema = z.strictObject({ text: plainText(GRIEVANCE_TEXT_MAX).optional() });
/** POST /api/grievance/:id/resolve: the note is required (the raiser reads it). */
export const grievanceResolveSchema = z.strictObject({ note: plainText(GRIEVANCE_TEXT_MAX) });
/** POST /api/grievance/:id/assign. */
export const grievanceAssignSchema = z.strictObject({ ownerId: idSchema });

/** GET /api/grievance/queue. */
export const grievanceQueueSchema = z.strictObject({
  status: z.enum(GRIEVANCE_STATUSES).optional(),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** A reporter's way back: an e-mail address or an Indian mobile number. */
const contactSchema = z
  .string()
  .trim()
  .max(254)
  .transform((v, ctx) => {
    if (v.includes('@')) {
      const e = emailSchema.safeParse(v);
      if (e.success) return e.data;
    } else {
      const m = mobileSchema.safeParse(v);
      if (m.success) return m.data;
    }
    ctx.addIssue({ code: 'custom', message: MSG.reportContact });
    return z.NEVER;
  });

/** POST /api/campaign/:id/report: anyone, guests too. */
export const campaignReportSchema = z.strictObject({
  reason: z.enum(REPORT_REASONS),
  text: plainText(REPORT_TEXT_MAX),
  contact: z.union([z.literal('').transform(() => undefined), contactSchema]).optional(),
});
export type CampaignReport = z.output<typeof campaignReportSchema>;

export type GrievancePerson = { id: string; name: string };

/** A grievance in a list (the raiser's, the staff queue). */
export type GrievanceRow = {
  id: string;
  number: string;
  subject: GrievanceSubject;
  subjectId: string | null;
  title: string;
  status: GrievanceStatus;
  /** A public report of a campaign: its reason; null for a grievance. */
  reportReason: ReportReason | null;
  raiser: GrievancePerson | null;
  owner: GrievancePerson | null;
  dueAt: number;
  overdue: boolean;
  createdAt: number;
  updatedAt: number;
  resolvedAt: number | null;
};

export type GrievanceMessage = { id: string; author: GrievancePerson | null; staff: boolean; text: string; createdAt: number };

/** One grievance with its thread (oldest first). */
export type GrievanceView = GrievanceRow & {
  text: string;
  /** A report's way back to its reporter (staff only). */
  contact: string | null;
  resolutionNote: string | null;
  /** Until when the raiser may reopen it (resolved ones). */
  reopenUntil: number | null;
  messages: GrievanceMessage[];
};
