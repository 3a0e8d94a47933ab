import type { Context, Hono } from 'hono';
import type { AppEnv, Deps } from '../../context';
import { route } from '../../lib/route';
import type { ProviderCallback } from './adapter';
import { deliveryReport, inboundMessage } from './sms.service';

/**
 * The callback as the provider signed it: the address it called is our PUBLIC_URL with the path
 * and query (never the request's Host header; lib/site-url), and the raw body, never re-serialised.
 */
async function callbackOf(c: Context<AppEnv>, deps: Deps): Promise<ProviderCallback> {
  const url = new URL(c.req.url);
  return { url: deps.config.PUBLIC_URL + url.pathname + url.search, headers: c.req.raw.headers, body: await c.req.text() };
}

/** Twilio reads the answer to an inbound message as TwiML: an empty one sends nothing back (replies go through the outbox). */
const emptyTwiml = (c: Context<AppEnv>) => c.body('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', 200, { 'content-type': 'text/xml' });

/** The providers' callbacks (docs/sms.md): public, each checked by its provider's signature or token. */
export function smsRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'POST /sms/twilio/status', async (c) => c.json(await deliveryReport(deps, 'twilio', await callbackOf(c, deps))));
  route(app, deps, 'POST /sms/twilio/inbound', async (c) => {
    await inboundMessage(deps, 'twilio', await callbackOf(c, deps));
    return emptyTwiml(c);
  });
  route(app, deps, 'POST /sms/msg91/report', async (c) => c.json(await deliveryReport(deps, 'msg91', await callbackOf(c, deps))));
  route(app, deps, 'POST /sms/msg91/inbound', async (c) => c.json(await inboundMessage(deps, 'msg91', await callbackOf(c, deps))));
}
