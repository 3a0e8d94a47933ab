import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { MSG } from '@pm/protocol/messages';
import type { Provider } from '@pm/protocol/payment';
import type { Deps } from '../../context';
import { receiveWebhook } from './webhook-inbox';

/** Largest webhook body read (PhonePe and Razorpay events are a few KiB). */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

/** The providers' webhook paths (modules/payments/payments.routes.ts registers the same under /api). */
const WEBHOOK_URL = /^\/api\/(phonepe|razorpay)\/webhook(?:\?.*)?$/;

type Answer = { status: 200 | 400 | 401; body: Record<string, unknown> };

/**
 * What a provider's delivery gets, whichever way it came in (Hono's route, or `webhookDirect`):
 * a verified event is stored and answered 200 at once, also when it was a repeat (providers retry
 * anything else); the inbox worker applies it after the answer (webhook-inbox.ts). The raw body:
 * Razorpay's signature is over its exact bytes.
 */
const TOO_LARGE: Answer = { status: 400, body: { success: false, msg: MSG.payloadTooLarge, code: 'BAD_REQUEST' } };

export async function answerWebhook(deps: Deps, provider: Provider, headers: Headers, raw: string): Promise<Answer> {
  if (raw.length > MAX_WEBHOOK_BYTES) return TOO_LARGE;
  const result = await receiveWebhook(deps, provider, headers, raw);
  if (!result) return { status: 401, body: { success: false, msg: MSG.invalidSignature, code: 'UNAUTHENTICATED' } };
  return { status: 200, body: { success: true, duplicate: result.duplicate } };
}

/**
 * The webhook routes served on Node's own request and response, before @hono/node-server builds
 * a fetch Request and before the app's middleware (docs/benchmarks.md "bench:payments"): a provider
 * delivers in bursts (a thousand at once after an outage), each delivery's own work is one
 * signature check and one INSERT, and the framework's per-request work was most of the rest. The
 * answer carries the API's headers (`apiHeaders`: server time, request id, instance, nosniff,
 * no-store) and the request is logged as every request is. True when it took the request.
 */
export function webhookDirect(deps: Deps, apiHeaders: () => Record<string, string>) {
  return (incoming: IncomingMessage, outgoing: ServerResponse): boolean => {
    if (incoming.method !== 'POST') return false;
    const match = WEBHOOK_URL.exec(incoming.url ?? '');
    if (!match) return false;
    const provider = match[1] as Provider;
    const started = performance.now();
    const chunks: Buffer[] = [];
    let size = 0;
    const answer = (a: Answer, headers: Record<string, string>) => {
      const body = JSON.stringify(a.body);
      outgoing.writeHead(a.status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      outgoing.end(body);
      deps.log.info({ reqId: headers['X-Request-Id'], method: 'POST', path: incoming.url, status: a.status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
    };
    const failed = (err: unknown, headers: Record<string, string>) => {
      deps.log.error({ reqId: headers['X-Request-Id'], err }, 'unhandled error');
      const body = JSON.stringify({ success: false, msg: MSG.serverError, code: 'INTERNAL' });
      if (!outgoing.headersSent) outgoing.writeHead(500, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
      outgoing.end(body);
    };
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the rest is read and dropped: the answer is 400.
      if (size <= MAX_WEBHOOK_BYTES) chunks.push(chunk);
    });
    incoming.on('end', () => {
      const headers = apiHeaders();
      if (size > MAX_WEBHOOK_BYTES) {
        answer(TOO_LARGE, headers);
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      const received = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === 'string') received.set(name, value);
      }
      answerWebhook(deps, provider, received, raw).then(
        (a) => answer(a, headers),
        (err: unknown) => failed(err, headers),
      );
    });
    return true;
  };
}
