import webpush from 'web-push';
import type { Vapid } from './vapid';

/** What a message is sent to: a stored subscription's endpoint and the device's keys. */
export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

/** RFC 8030 §5.2–5.4: how long the push service keeps it, how urgent it is, what it replaces. */
export type SendOptions = { ttl: number; urgency?: 'very-low' | 'low' | 'normal' | 'high'; topic?: string };

/** The push service's HTTP status (201 delivered; 404/410 the subscription is gone), or 0 when it could not be reached. */
export type SendResult = { status: number; error?: string };

/** The adapter (ARCHITECTURE decision 9): sends one encrypted message to one subscription. */
export type PushSender = (target: PushTarget, payload: string, opts: SendOptions) => Promise<SendResult>;

/**
 * The real sender. web-push builds the request — the payload encrypted to the device's keys
 * (RFC 8291, aes128gcm), the VAPID `Authorization` signed with our key for the endpoint's origin
 * (RFC 8292), TTL, Urgency and Topic — and fetch sends it. This is what web-push's
 * sendNotification does (generateRequestDetails, then a request), except that sendNotification
 * sends with `https.request` only, which cannot reach a plain-HTTP push service such as the local
 * push endpoint of tests and the demo (local-push-service.ts); with fetch the same code reaches FCM,
 * Mozilla's autopush, Apple's and Microsoft's services and the local one. Redirects are not
 * followed: a push service answers, it does not send us elsewhere.
 */
export function webPushSender(vapid: Vapid, opts: { timeoutMs?: number } = {}): PushSender {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return async (target, payload, o) => {
    let details;
    try {
      details = webpush.generateRequestDetails(target, payload, {
        vapidDetails: vapid,
        TTL: o.ttl,
        contentEncoding: 'aes128gcm',
        ...(o.urgency && { urgency: o.urgency }),
        ...(o.topic && { topic: o.topic }),
      });
    } catch (err) {
      // A key that is not a P-256 point, a payload over the limit: nothing was sent.
      return { status: 0, error: (err as Error).message };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) {
      // fetch sets Content-Length from the body itself.
      if (name.toLowerCase() !== 'content-length' && value !== undefined) headers[name] = String(value);
    }
    try {
      const res = await fetch(details.endpoint, {
        method: details.method,
        headers,
        // A copy on its own ArrayBuffer: what fetch's BodyInit takes in every lib the projects use.
        body: details.body ? new Uint8Array(details.body) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The answer's body says nothing we act on; reading it would only hold the connection.
      await res.body?.cancel().catch(() => undefined);
      return { status: res.status };
    } catch (err) {
      return { status: 0, error: (err as Error).message };
    }
  };
}
