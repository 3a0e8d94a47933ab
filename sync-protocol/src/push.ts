import { z } from 'zod';
import { langSchema } from './common';

/*
 * Web Push (docs/configuration.md "Push messages (Web Push)"). The device subscribes with the browser's PushManager and sends the
 * subscription with PATCH /api/generic/update-firebase-token (the spec's path; the body
 * is the Web Push subscription instead of a Firebase token). The server encrypts each message to
 * the device's keys (RFC 8291) and signs its request to the push service with its VAPID key
 * (RFC 8292), whose public half GET /api/push/public-key publishes.
 */

/** Longest endpoint taken: push services' URLs are ~150–500 characters. */
export const MAX_PUSH_ENDPOINT = 2048;

/**
 * The device's P-256 public key: an uncompressed point (65 bytes, first byte 0x04) in base64url,
 * 87 characters (88 with the padding some browsers add). 0x04 makes the first character `B`.
 */
const p256dhSchema = z
  .string({ error: 'keys.p256dh is required' })
  .regex(/^B[A-Za-z0-9_-]{86}=?$/, { error: 'keys.p256dh must be a P-256 public key (65 bytes, base64url)' });
/** The device's authentication secret: 16 bytes in base64url (22 characters, 24 padded). */
const authSchema = z.string({ error: 'keys.auth is required' }).regex(/^[A-Za-z0-9_-]{22}(?:==)?$/, { error: 'keys.auth must be 16 bytes in base64url' });

/**
 * PATCH /api/generic/update-firebase-token: what `PushSubscription.toJSON()` gives
 * (`endpoint`, `expirationTime`, `keys`), and the app's language on the device, so that messages
 * come in it. The same endpoint sent again replaces the keys.
 */
export const pushSubscriptionSchema = z.strictObject({
  endpoint: z
    .string({ error: 'endpoint is required' })
    .max(MAX_PUSH_ENDPOINT, { error: 'endpoint is too long' })
    .pipe(z.url({ protocol: /^https?$/, error: 'endpoint must be an http(s) URL' })),
  /** When the push service ends the subscription (ms), or null; informative only. */
  expirationTime: z.number().int().min(0).nullable().optional(),
  keys: z.strictObject({ p256dh: p256dhSchema, auth: authSchema }, { error: 'keys is required' }),
  lang: langSchema.optional(),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** DELETE /api/generic/update-firebase-token {endpoint}: this device wants no more messages. */
export const pushUnsubscribeSchema = z.strictObject({
  endpoint: z.string({ error: 'endpoint is required' }).min(1, { error: 'endpoint is required' }).max(MAX_PUSH_ENDPOINT, { error: 'endpoint is too long' }),
});

/** GET /api/push/public-key: the VAPID public key (the `applicationServerKey` to subscribe with). */
export type PushPublicKeyResponse = { success: true; publicKey: string };

/** What a message is about. */
export const PUSH_KINDS = ['result-ready', 'new-set', 'plan-ending', 'withdrawal'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/**
 * The decrypted payload the service worker receives (client/public/push-sw.js): a title and body
 * in the learner's language (both languages when it is not known), and the app's page to open.
 */
export type PushPayload = {
  kind: PushKind;
  title: string;
  body: string;
  /** A path of this site, e.g. `/exam-result/qs-mock-ssc-1/false`. */
  url: string;
  /** Notifications with the same tag replace each other on the device. */
  tag: string;
  /** `en`, `hi`, or absent when the text carries both. */
  lang?: 'en' | 'hi';
};
