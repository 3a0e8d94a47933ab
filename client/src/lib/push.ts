import type { PushPublicKeyResponse, PushSubscriptionInput } from '@pm/protocol/push';
import { api } from './api-client';
import i18n from './i18n';

/*
 * Web Push on the device (docs/configuration.md "Push messages (Web Push)"): the browser's PushManager subscription, made with the
 * server's VAPID public key and sent to the server with PATCH /api/generic/update-firebase-token
 * (the spec's path). The service worker shows the messages (client/public/push-sw.js). The
 * learner is asked once they have submitted a test (components/push-prompt.tsx), never on a
 * first visit.
 */

/** Whether this browser can receive Web Push at all. */
export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

const DISMISSED_KEY = 'push-prompt-dismissed';
/** "Not now" is respected this long before the prompt may show again. */
const ASK_AGAIN_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

export function promptDismissedRecently(now = Date.now()): boolean {
  const at = Number(localStorage.getItem(DISMISSED_KEY) ?? 0);
  return Number.isFinite(at) && now - at < ASK_AGAIN_AFTER_MS;
}
export function dismissPrompt(now = Date.now()): void {
  localStorage.setItem(DISMISSED_KEY, String(now));
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const x = new Uint8Array(a);
  return x.every((v, i) => v === b[i]);
}

/** The service worker's registration, or null when none is active within `ms` (dev server, a browser without one). */
async function registration(ms = 10_000): Promise<ServiceWorkerRegistration | null> {
  return Promise.race([navigator.serviceWorker.ready, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
}

/** What was last sent to the server in this tab (endpoint and language), to send it once. */
const SENT_KEY = 'push-subscription-sent';

/**
 * This device's subscription, made (or kept, when it was made with the server's current key)
 * and sent to the server for the signed-in person with the app's language. Throws when the
 * browser or the network refuses. `force` sends it even if this tab sent it already.
 */
async function subscribeAndSend(force: boolean): Promise<void> {
  const reg = await registration();
  if (!reg) throw new Error('no service worker');
  const { publicKey } = await api<PushPublicKeyResponse>('/push/public-key', { background: true, silent: true });
  const key = keyBytes(publicKey);
  let sub = await reg.pushManager.getSubscription();
  // A subscription made with another key (the server's keys changed) is dead: replace it.
  if (sub && !sameKey(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe().catch(() => undefined);
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = sub.toJSON();
  const lang = i18n.language === 'hi' ? 'hi' : 'en';
  const marker = `${sub.endpoint}|${lang}`;
  if (!force && sessionStorage.getItem(SENT_KEY) === marker) return;
  const body: PushSubscriptionInput = {
    endpoint: sub.endpoint,
    expirationTime: sub.expirationTime,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    lang,
  };
  await api('/generic/update-firebase-token', { method: 'PATCH', body, background: true, silent: true });
  sessionStorage.setItem(SENT_KEY, marker);
}

/**
 * The learner said yes: asks the browser for permission (this must run in the click's handler)
 * and subscribes. Resolves with the permission; throws when subscribing or sending failed.
 */
export async function enablePush(): Promise<NotificationPermission> {
  const permission = await Notification.requestPermission();
  if (permission === 'granted') await subscribeAndSend(true);
  return permission;
}

/**
 * With permission already given (earlier, or by someone else signed in on this browser), makes
 * sure the server has this device for the person signed in now: logging out removes it there
 * (docs/security.md "Sessions and logout"). Quiet: failures wait for the next time.
 */
export async function resendSubscription(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  await subscribeAndSend(false).catch(() => undefined);
}
