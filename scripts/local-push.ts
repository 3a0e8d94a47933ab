/**
 * The local push endpoint for the demo (docs/configuration.md "Push messages (Web Push)"): a push service of our own on the loopback,
 * subscribed for a demo account of a running server, printing every message the server sends to
 * it, decrypted, after checking its VAPID header (server/src/modules/push/local-push-service.ts).
 * A browser's own subscription goes to its vendor's push service (FCM, Mozilla, Apple …), which
 * needs the internet; this shows the server's messages without one.
 *
 *   npm start                           # in one terminal (not NODE_ENV=production: the server takes loopback endpoints only then)
 *   npx tsx scripts/local-push.ts       # in another; --server, --user, --password, --lang, --port
 *
 * Then take a test as that learner with the network off and reconnect after a minute or more:
 * "Your result is ready" is printed once the server has scored it. Ctrl-C removes the subscription.
 */
import { parseArgs } from 'node:util';
import { startLocalPushService } from '../server/src/modules/push/local-push-service';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'http://127.0.0.1:8080' },
    // The demo learner of fixtures/ (README "Demo accounts"); its password is published.
    user: { type: 'string', default: '9000000003' },
    password: { type: 'string', default: 'learner1234' },
    lang: { type: 'string' },
    port: { type: 'string', default: '0' },
  },
});
const server = values.server.replace(/\/+$/, '');

async function call<T>(method: string, path: string, init: { token?: string; basic?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${server}/api${path}`, {
    method,
    headers: {
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...(init.basic && { authorization: `Basic ${init.basic}` }),
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const json = (await res.json().catch(() => null)) as T & { msg?: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${json?.msg ?? ''}`);
  return json;
}

const local = await startLocalPushService({ port: Number(values.port) });
const { publicKey } = await call<{ publicKey: string }>('GET', '/push/public-key');
const { token } = await call<{ token: string }>('POST', '/UserLogin/login', { basic: Buffer.from(`${values.user}:${values.password}`).toString('base64') });
const sub = local.createSubscription({ applicationServerKey: publicKey });
await call('PATCH', '/generic/update-firebase-token', { token, body: { ...sub, ...(values.lang === 'en' || values.lang === 'hi' ? { lang: values.lang } : {}) } });
console.log(`local push endpoint ${local.origin}: subscribed for ${values.user} on ${server}; waiting for messages (Ctrl-C stops)`);

local.onMessage((m) => console.log(JSON.stringify({ at: new Date(m.receivedAt).toISOString(), ttl: m.ttl, urgency: m.urgency, vapid: m.vapid.claims, message: m.json ?? m.text })));
let refused = 0;
setInterval(() => {
  for (const r of local.refusals.slice(refused)) console.warn(`refused (${r.status}): ${r.reason}`);
  refused = local.refusals.length;
}, 1000).unref();

const stop = async () => {
  await call('DELETE', '/generic/update-firebase-token', { token, body: { endpoint: sub.endpoint } }).catch(() => undefined);
  await local.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
