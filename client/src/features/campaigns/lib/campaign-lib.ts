import { CAMPAIGN_IMAGE_MAX_BYTES } from '@pm/protocol/campaign';
import type { Bilingual, CampaignCard, NeedItem } from '../api/types';

export type Lang = 'en' | 'hi';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A campaign's text in the chosen language, English where the Hindi is missing (and the other way round). */
export function pick(text: Bilingual | undefined, lang: Lang): string {
  if (!text) return '';
  return lang === 'hi' ? text.hi || text.en : text.en || text.hi;
}

/** Whole days until `endsAt` (a part of a day counts as one), never below 0. */
export function daysLeft(endsAt: number, now = Date.now()): number {
  return Math.max(0, Math.ceil((endsAt - now) / DAY_MS));
}

/** How much of the goal is raised, as a whole percentage for the progress bar (at most 100). */
export function progressPercent(raised: number, goal: number): number {
  if (!(goal > 0)) return 0;
  return Math.min(100, Math.floor((raised * 100) / goal));
}

/**
 * Why a campaign takes no donation now, or null when it does (docs/charity.md "A campaign":
 * only APPROVED campaigns whose end has not passed take donations).
 */
export type DonationBlock = 'ended' | 'paused' | 'closed' | 'notApproved' | 'held';

/**
 * `takingDonations` (a campaign's page carries it): false also while its beneficiary is
 * suspended (docs/charity.md "Moderation"), told to the donor only as "not taking donations now".
 */
export function donationBlock(campaign: Pick<CampaignCard, 'status' | 'endsAt'> & { takingDonations?: boolean }, now = Date.now()): DonationBlock | null {
  if (campaign.status === 'PAUSED') return 'paused';
  if (campaign.status === 'CLOSED') return 'closed';
  if (campaign.status !== 'APPROVED') return 'notApproved';
  if (campaign.endsAt <= now) return 'ended';
  if (campaign.takingDonations === false) return 'held';
  return null;
}

/** The goal: what the need items add up to (docs/charity.md: "the goal is their sum"), in paise. */
export function goalOf(need: readonly Pick<NeedItem, 'amount'>[]): number {
  return need.reduce((sum, item) => sum + (Number.isFinite(item.amount) ? item.amount : 0), 0);
}

export const rupeesToPaise = (rupees: number) => Math.round(rupees * 100);

/** A PAN: five letters, four digits, a letter (AAAAA9999A). */
export const PAN_PATTERN = /^[A-Z]{5}[0-9]{4}[A-Z]$/;

export function isPan(value: string): boolean {
  return PAN_PATTERN.test(value.trim().toUpperCase());
}

/** Ten digits, with or without +91 (the app's mobile rule). */
export function isMobile(value: string): boolean {
  return /^(\+91)?\d{10}$/.test(value.replace(/[\s-]/g, ''));
}

export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** Campaign images: PNG or JPEG only, up to 5 MB each (the FAQ; the server decides again by the bytes). */
const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_MAGIC = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

async function headOf(file: Blob, n: number): Promise<Uint8Array> {
  const part = file.slice(0, n);
  // jsdom's Blob has no arrayBuffer(); FileReader reads it everywhere.
  if (typeof part.arrayBuffer === 'function') return new Uint8Array(await part.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(part);
  });
}

/** Why an image file cannot be a campaign's, or null: by its size and its first bytes, not its name. */
export async function imageProblem(file: Blob): Promise<'size' | 'type' | null> {
  if (file.size > CAMPAIGN_IMAGE_MAX_BYTES) return 'size';
  const head = await headOf(file, 8);
  return startsWith(head, PNG_MAGIC) || startsWith(head, JPEG_MAGIC) ? null : 'type';
}

/** A WhatsApp link that shares `url` with its title (wa.me, which opens the app or WhatsApp Web). */
export function whatsappLink(title: string, url: string): string {
  return `https://wa.me/?text=${encodeURIComponent(`${title} ${url}`)}`;
}
