import type { Campaign, CampaignDraft, CampaignImage, Cause } from '../api/types';
import { goalOf, rupeesToPaise } from './campaign-lib';
import { parseRupees } from './donation-rules';

/** A need item as its inputs hold it (the amount in rupees, as typed). */
export type NeedRow = { whatEn: string; whatHi: string; from: string; amount: string };

/** The draft editor's values as its inputs hold them. */
export type EditorValues = {
  titleEn: string;
  titleHi: string;
  storyEn: string;
  storyHi: string;
  cause: Cause | '';
  need: NeedRow[];
  /** yyyy-mm-dd, the last day of the campaign. */
  endsOn: string;
  images: CampaignImage[];
};

export type EditorErrorKey =
  | 'editor.errors.title'
  | 'editor.errors.story'
  | 'editor.errors.cause'
  | 'editor.errors.needWhat'
  | 'editor.errors.needAmount'
  | 'editor.errors.needNone'
  | 'editor.errors.endsOn';

export const emptyNeedRow = (): NeedRow => ({ whatEn: '', whatHi: '', from: '', amount: '' });

const pad = (n: number) => String(n).padStart(2, '0');

/** The local calendar day of `ms` as an <input type="date"> value. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The end of the chosen day, local time: a campaign takes donations through its last day. */
export function endOfDay(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999).getTime();
}

export function editorValuesOf(c: Campaign | null): EditorValues {
  if (!c) return { titleEn: '', titleHi: '', storyEn: '', storyHi: '', cause: '', need: [emptyNeedRow()], endsOn: '', images: [] };
  return {
    titleEn: c.title.en,
    titleHi: c.title.hi,
    storyEn: c.story.en,
    storyHi: c.story.hi,
    cause: c.cause,
    need: c.need.length ? c.need.map((n) => ({ whatEn: n.what.en, whatHi: n.what.hi, from: n.from ?? '', amount: String(n.amount / 100) })) : [emptyNeedRow()],
    endsOn: c.endsAt ? dayOf(c.endsAt) : '',
    images: [...c.images],
  };
}

const needAmount = (row: NeedRow) => {
  const rupees = parseRupees(row.amount);
  return rupees === null ? 0 : rupeesToPaise(rupees);
};

/** The goal the need items add up to, in paise (docs/charity.md: the goal is their sum). */
export const editorGoal = (need: readonly NeedRow[]) => goalOf(need.map((row) => ({ amount: needAmount(row) })));

/** The draft as POST /campaign and PATCH /campaign/:id take it (the images go by id with the PATCH); need rows left wholly blank are dropped. */
export function draftOf(v: EditorValues): CampaignDraft {
  return {
    title: { en: v.titleEn.trim(), hi: v.titleHi.trim() },
    story: { en: v.storyEn, hi: v.storyHi },
    cause: (v.cause || 'OTHER') as Cause,
    need: v.need
      .filter((row) => row.whatEn.trim() || row.whatHi.trim() || row.amount.trim())
      .map((row) => ({ what: { en: row.whatEn.trim(), hi: row.whatHi.trim() }, ...(row.from.trim() && { from: row.from.trim() }), amount: needAmount(row) })),
    endsAt: endOfDay(v.endsOn) ?? 0,
  };
}

/**
 * What a draft must hold (docs/charity.md "A campaign"; the server's campaignCreateSchema): an
 * English title and story, a cause, at least one need with what and how much, and a last day;
 * submitting it for approval also needs that day to be after today.
 */
export function draftErrors(v: EditorValues, { submitting, now = Date.now() }: { submitting: boolean; now?: number }): Partial<Record<string, EditorErrorKey>> {
  const errors: Partial<Record<string, EditorErrorKey>> = {};
  if (!v.titleEn.trim()) errors.titleEn = 'editor.errors.title';
  if (!v.storyEn.replace(/<[^>]*>/g, '').trim()) errors.storyEn = 'editor.errors.story';
  if (!v.cause) errors.cause = 'editor.errors.cause';
  const rows = v.need.filter((row) => row.whatEn.trim() || row.whatHi.trim() || row.amount.trim());
  if (rows.length === 0) errors['need.0.whatEn'] = 'editor.errors.needNone';
  v.need.forEach((row, i) => {
    if (!(row.whatEn.trim() || row.whatHi.trim() || row.amount.trim())) return;
    if (!row.whatEn.trim()) errors[`need.${i}.whatEn`] = 'editor.errors.needWhat';
    const rupees = parseRupees(row.amount);
    if (rupees === null || rupees < 1) errors[`need.${i}.amount`] = 'editor.errors.needAmount';
  });
  const ends = endOfDay(v.endsOn);
  if (ends === null || (submitting && ends <= now)) errors.endsOn = 'editor.errors.endsOn';
  return errors;
}
