import { createHmac, timingSafeEqual } from 'node:crypto';
import { MOBILE_PREFIX } from '@pm/protocol/common';
import { MSG } from '@pm/protocol/messages';
import type { Conn } from '../../db/client';
import { badRequest } from '../../lib/errors';
import { findByMobileOrEmail } from './persons.repo';

/*
 * What the public referrer lookup (GET /Person/getReferrer) gives away (docs/security.md "Referrals and names"): only what
 * the signup form needs to confirm a person, for anyone who knows a mobile number. Not the name,
 * a masked one ("Ra*** Ku***"); not the person id, an opaque handle the form sends back as the
 * signup's `p`.
 *
 * The handle is `r1.<the 10 digits>.<MAC>`, the MAC an HMAC-SHA256 (128 bits kept) of the
 * person's id and mobile under a key derived from the server secret. It tells the caller nothing
 * they did not type, cannot be made for another person without the key, and stops working when
 * the mobile is no longer that person's. It needs no table (the schema stays as it is) and is
 * short enough for the signup's `p` (64 characters). It does not expire: it grants no more than
 * the mobile it was made from, which the caller already has. The '.' keeps it apart from person
 * ids (`idSchema` allows no '.'), which the signup keeps accepting from callers that hold one (an
 * admin's tools, older installed clients).
 */

const HANDLE = /^r1\.(\d{10})\.([A-Za-z0-9_-]{22})$/;

function handleMac(secret: Uint8Array, personId: string, mobile: string): Buffer {
  // A key of its own: a MAC made here can never pass for a token signed with the secret.
  const key = createHmac('sha256', secret).update('pariksha-mitra/referrer-handle/v1').digest();
  return createHmac('sha256', key).update(`${personId}\n${mobile}`).digest().subarray(0, 16);
}

/** The opaque handle of a person found by mobile (stored form, +91 and ten digits). */
export function referrerHandle(secret: Uint8Array, p: { id: string; mobile: string }): string {
  return `r1.${p.mobile.slice(MOBILE_PREFIX.length)}.${handleMac(secret, p.id, p.mobile).toString('base64url')}`;
}

/**
 * The person id a signup's `p` names: a handle from the lookup, checked and resolved, or a person
 * id, returned as given (the caller checks it exists and may refer, `assertReferrerAllowed`).
 */
export async function referrerIdOf(db: Conn, secret: Uint8Array, p: string): Promise<string> {
  if (!p.startsWith('r1.')) return p;
  const m = HANDLE.exec(p);
  const row = m ? await findByMobileOrEmail(db, { mobile: MOBILE_PREFIX + m[1] }) : undefined;
  if (!m || !row) throw badRequest(MSG.referrerNotFound);
  const given = Buffer.from(m[2] ?? '', 'base64url');
  const expected = handleMac(secret, row.id, row.mobile);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badRequest(MSG.referrerNotFound);
  return row.id;
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/**
 * A name as the lookup shows it: each word's first two letters (one for words of three letters
 * or fewer) and a fixed '***', so that neither the rest nor the length of a word shows. Letters
 * are grapheme clusters, so a Devanagari letter keeps its vowel sign ("लता" → "ल***").
 */
export function maskName(name: string): string {
  return name
    .trim()
    .split(/\s+/u)
    .filter(Boolean)
    .map((word) => {
      const letters = Array.from(graphemes.segment(word), (g) => g.segment);
      return `${letters.slice(0, letters.length > 3 ? 2 : 1).join('')}***`;
    })
    .join(' ');
}
