import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptAes128gcm, verifyVapid, type VapidClaims } from './web-push-crypto';

/*
 * The local push endpoint (ARCHITECTURE decision 9: push messages have a local default that works
 * with no network). One HTTP server that plays both ends a browser vendor would: the push service,
 * which takes the application server's POST (RFC 8030 §5) after checking its VAPID header (RFC
 * 8292), and the user agent, which holds the subscription's private key and decrypts the message
 * (RFC 8291). Subscriptions made here are ordinary Web Push subscriptions: the server stores and
 * sends to them with the same code it uses for FCM, Mozilla's autopush or Apple's service, so tests
 * and the demo (scripts/local-push.ts) run the real sending code and read what arrived.
 */

/** RFC 8291 §4: a push service must accept at least 4096 bytes of body; we take no more. */
const MAX_BODY = 4096;

export type LocalSubscription = { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };

/** A message delivered: decrypted, with the request's Web Push headers and its VAPID claims. */
export type LocalPushMessage = {
  id: string;
  endpoint: string;
  /** The decrypted payload, as text, and parsed when it is JSON. */
  text: string;
  json: unknown;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  vapid: { key: string; claims: VapidClaims };
  receivedAt: number;
};

/** A request the endpoint answered with an error, and why (tests read it). */
export type LocalPushRefusal = { endpoint: string; status: number; reason: string };

type Held = {
  id: string;
  privateKey: Buffer;
  publicKey: Buffer;
  authSecret: Buffer;
  applicationServerKey: string | undefined;
  /** Set: every push is answered with this status (410 Gone, 404, 429, 500 …). */
  answer: number | null;
};

export type LocalPushService = Awaited<ReturnType<typeof startLocalPushService>>;

/**
 * Starts the local push endpoint on `host:port` (port 0: a free port). `createSubscription` makes a
 * subscription the way `PushManager.subscribe` would (a fresh P-256 key pair and auth secret), bound
 * to `applicationServerKey` when given: pushes signed with another VAPID key are refused (403).
 */
export async function startLocalPushService(opts: { host?: string; port?: number } = {}) {
  const held = new Map<string, Held>();
  const messages: LocalPushMessage[] = [];
  const refusals: LocalPushRefusal[] = [];
  const listeners = new Set<(m: LocalPushMessage) => void>();
  let origin = '';

  const refuse = (res: ServerResponse, endpoint: string, status: number, reason: string) => {
    refusals.push({ endpoint, status, reason });
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(reason);
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', origin);
    const endpoint = `${origin}${url.pathname}`;
    const m = /^\/push\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (req.method !== 'POST' || !m) {
      req.resume();
      return refuse(res, endpoint, req.method === 'POST' ? 404 : 405, 'not a push endpoint');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY) return refuse(res, endpoint, 413, `body over ${MAX_BODY} bytes`);
      chunks.push(chunk);
    }
    const sub = held.get(m[1]!);
    if (!sub) return refuse(res, endpoint, 404, 'no such subscription');
    if (sub.answer !== null) return refuse(res, endpoint, sub.answer, `answering ${sub.answer} as told`);
    // RFC 8292: the push service checks who sends before anything else about the message.
    const vapid = verifyVapid(req.headers.authorization, origin, sub.applicationServerKey ? { expectedKey: sub.applicationServerKey } : {});
    if (!vapid.ok) return refuse(res, endpoint, vapid.reason.startsWith('k is not the key') ? 403 : 401, `VAPID: ${vapid.reason}`);
    // RFC 8030 §5.2: TTL is required.
    const ttl = Number(req.headers.ttl);
    if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) return refuse(res, endpoint, 400, 'TTL header required');
    const body = Buffer.concat(chunks);
    if (body.length > 0 && req.headers['content-encoding'] !== 'aes128gcm') return refuse(res, endpoint, 415, 'Content-Encoding must be aes128gcm');
    let text = '';
    if (body.length > 0) {
      try {
        text = decryptAes128gcm(body, sub).toString('utf8');
      } catch (err) {
        return refuse(res, endpoint, 400, `cannot decrypt: ${(err as Error).message}`);
      }
    }
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    const message: LocalPushMessage = {
      id: randomUUID(),
      endpoint,
      text,
      json,
      ttl,
      urgency: typeof req.headers.urgency === 'string' ? req.headers.urgency : null,
      topic: typeof req.headers.topic === 'string' ? req.headers.topic : null,
      vapid: { key: vapid.key, claims: vapid.claims },
      receivedAt: Date.now(),
    };
    messages.push(message);
    res.writeHead(201, { location: `${origin}/message/${message.id}` }).end();
    for (const l of listeners) l(message);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) refuse(res, req.url ?? '', 500, String(err));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  origin = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  const idOf = (endpoint: string) => /\/push\/([A-Za-z0-9_-]+)$/.exec(endpoint)?.[1] ?? '';
  const onMessage = (listener: (m: LocalPushMessage) => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  return {
    origin,
    /** Every message delivered so far, oldest first. */
    messages,
    /** Every request answered with an error, oldest first. */
    refusals,
    /** A new subscription, as `PushSubscription.toJSON()` gives it. */
    createSubscription(o: { applicationServerKey?: string } = {}): LocalSubscription {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const sub: Held = {
        id: randomBytes(16).toString('base64url'),
        privateKey: ecdh.getPrivateKey(),
        publicKey: ecdh.getPublicKey(),
        authSecret: randomBytes(16),
        applicationServerKey: o.applicationServerKey,
        answer: null,
      };
      held.set(sub.id, sub);
      return { endpoint: `${origin}/push/${sub.id}`, expirationTime: null, keys: { p256dh: sub.publicKey.toString('base64url'), auth: sub.authSecret.toString('base64url') } };
    },
    /**
     * From now on, pushes to this subscription are answered with `status`: 410 (the user
     * unsubscribed), 404 (it expired), or any other (429, 500 …); null delivers again.
     */
    answerWith(endpoint: string, status: number | null) {
      const sub = held.get(idOf(endpoint));
      if (sub) sub.answer = status;
    },
    /** Calls `listener` with every message delivered from now on; returns its removal. */
    onMessage,
    /** The first message (already delivered or coming) that `match` accepts, or a timeout error. */
    waitForMessage(match: (m: LocalPushMessage) => boolean = () => true, timeoutMs = 10_000): Promise<LocalPushMessage> {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          stop();
          reject(new Error(`no matching push message within ${timeoutMs} ms`));
        }, timeoutMs);
        const stop = onMessage((m) => {
          if (!match(m)) return;
          clearTimeout(timer);
          stop();
          resolve(m);
        });
      });
    },
    close(): Promise<void> {
      listeners.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}
