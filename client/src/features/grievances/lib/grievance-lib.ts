import { GRIEVANCE_SUBJECTS, type GrievanceStatus, type GrievanceSubject } from '@pm/protocol/grievance';
import { paths } from '@/config/paths';

/** A grievance's page (the raiser's and staff's): its thread. */
export const grievancePath = (id: string) => `${paths.grievances}/${encodeURIComponent(id)}`;

export const STATUS_COLORS: Record<GrievanceStatus, string> = { OPEN: 'blue', ANSWERED: 'teal', RESOLVED: 'gray' };

/** Subjects that name one thing (its id); ACCOUNT is the raiser's own, OTHER names nothing. */
export const needsSubjectId = (subject: GrievanceSubject) => subject === 'DONATION' || subject === 'CAMPAIGN' || subject === 'WITHDRAWAL';

/**
 * The form's first values from its address (`?subject=DONATION&id=…`: "Raise a grievance" on a
 * donation's or a campaign's page); anything unknown is left out.
 */
export function prefillOf(params: URLSearchParams): { subject: GrievanceSubject; subjectId: string } {
  const asked = params.get('subject');
  const subject = (GRIEVANCE_SUBJECTS as readonly string[]).includes(asked ?? '') ? (asked as GrievanceSubject) : 'OTHER';
  const id = params.get('id') ?? '';
  return { subject, subjectId: needsSubjectId(subject) && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : '' };
}

/** Whether the raiser may still reopen it now (docs/charity.md "Grievances": 30 days after the resolution). */
export const mayReopen = (g: { status: GrievanceStatus; reopenUntil: number | null }, now: number) => g.status === 'RESOLVED' && g.reopenUntil !== null && now <= g.reopenUntil;
