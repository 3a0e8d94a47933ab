import { expect, test, vi } from 'vitest';
import { SESSION_TOKEN_HEADER } from '@pm/protocol/session';
import { PROTOCOL_HEADER, PROTOCOL_VERSION, SERVER_TIME_HEADER } from '@pm/protocol/version';
import type { ServerClock } from './server-clock';
import { RequestStalledError } from './stall-guard';
import { createSyncTransport, pullPath, type RequestOutcome, SyncAuthError, SyncPaymentRequiredError, type TransportOptions } from './transport';

/*
 * The one sync transport of the learner's and the editor's replication (docs/replication.md "The
 * device side"): what every request sends, and what it does with each kind of answer.
 */

type Answer = { status?: number; body?: unknown; headers?: Record<string, string> };
type Sent = { url: string; init: RequestInit | undefined };

/** A fetch answering each request with `answer` (or throwing it), recording what was sent. */
function fakeFetch(answer: Answer | Error | ((input: RequestInfo | URL, init?: RequestInit) => Promise<Response>)) {
  const sent: Sent[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), init });
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer(input, init);
    return new Response(JSON.stringify(answer.body ?? {}), { status: answer.status ?? 200, headers: { 'content-type': 'application/json', ...answer.headers } });
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

/** A transport on `fetch` that records outcomes, renewed tokens and clock samples. */
function transportOn(fetch: typeof globalThis.fetch, extra: Partial<TransportOptions> = {}) {
  const outcomes: RequestOutcome[] = [];
  const renewed: [string, string][] = [];
  const samples: number[] = [];
  const clock: ServerClock = { observe: (serverTime) => void samples.push(serverTime), now: () => Date.now(), offset: () => 0 };
  const transport = createSyncTransport({
    baseUrl: 'http://server.test',
    getToken: () => 'token-1',
    onTokenRenewed: (sent, fresh) => void renewed.push([sent, fresh]),
    clock,
    fetch,
    onOutcome: (o) => void outcomes.push(o),
    ...extra,
  });
  return { transport, outcomes, renewed, samples };
}

const headerOf = (s: Sent, name: string) => (s.init?.headers as Record<string, string>)[name];

test('the pull query carries g only when the checkpoint has one', () => {
  expect(pullPath(undefined, 200)).toBe('pull?rev=0&limit=200');
  expect(pullPath({ rev: 7 }, 50)).toBe('pull?rev=7&limit=50');
  expect(pullPath({ rev: 7, g: 'mp' }, 50)).toBe('pull?rev=7&limit=50&g=mp');
  expect(pullPath({ rev: 7, g: '' }, 50)).toBe('pull?rev=7&limit=50&g=');
  expect(pullPath({ rev: 7, g: 'a&b' }, 50)).toBe('pull?rev=7&limit=50&g=a%26b');
});

test('a pull sends the token and the protocol version, feeds the clock and hands on a renewed token', async () => {
  const page = { documents: [{ id: 'q1' }], checkpoint: { rev: 3 } };
  const { fetch, sent } = fakeFetch({ body: page, headers: { [SERVER_TIME_HEADER]: '1700000000000', [SESSION_TOKEN_HEADER]: 'token-2' } });
  const { transport, outcomes, renewed, samples } = transportOn(fetch);
  expect(await transport.pull('ed_question', { rev: 2 }, 500)).toEqual(page);
  expect(sent[0]!.url).toBe('http://server.test/api/sync/v1/ed_question/pull?rev=2&limit=500');
  expect(headerOf(sent[0]!, 'authorization')).toBe('Bearer token-1');
  expect(headerOf(sent[0]!, PROTOCOL_HEADER)).toBe(PROTOCOL_VERSION);
  expect(sent[0]!.init?.cache).toBe('no-store');
  expect(samples).toEqual([1700000000000]);
  expect(renewed).toEqual([['token-1', 'token-2']]);
  expect(outcomes).toEqual(['ok']);
});

test('a push posts the rows as JSON and returns the answer as the endpoint gives it', async () => {
  const { fetch, sent } = fakeFetch({ body: { conflicts: [], refused: [] } });
  const { transport } = transportOn(fetch);
  const rows = [{ newDocumentState: { id: 'q1' }, assumedMasterState: null }];
  expect(await transport.push('ed_question', rows)).toEqual({ conflicts: [], refused: [] });
  expect(sent[0]!.url).toBe('http://server.test/api/sync/v1/ed_question/push');
  expect(sent[0]!.init?.method).toBe('POST');
  expect(headerOf(sent[0]!, 'content-type')).toBe('application/json');
  expect(JSON.parse(String(sent[0]!.init?.body))).toEqual(rows);
});

test('401 is SyncAuthError (signed out), 402 SyncPaymentRequiredError, another error status a plain error', async () => {
  const refused = transportOn(fakeFetch({ status: 401, body: { success: false } }).fetch);
  await expect(refused.transport.pull('tag', undefined, 10)).rejects.toBeInstanceOf(SyncAuthError);
  expect(refused.outcomes).toEqual(['signed-out']);

  const unpaid = transportOn(fakeFetch({ status: 402, body: { success: false } }).fetch);
  await expect(unpaid.transport.push('test_summary', [])).rejects.toBeInstanceOf(SyncPaymentRequiredError);
  expect(unpaid.outcomes).toEqual(['payment-required']);

  const failing = transportOn(fakeFetch({ status: 503, body: {} }).fetch);
  await expect(failing.transport.pull('tag', undefined, 10)).rejects.toThrow('sync tag/pull?rev=0&limit=10 answered 503');
  expect(failing.outcomes).toEqual(['failed']);
});

test('no token: nothing is sent and the request fails as signed out; a guest sends none and is answered', async () => {
  const { fetch, sent } = fakeFetch({ body: { documents: [], checkpoint: { rev: 0 } } });
  const signedOut = transportOn(fetch, { getToken: () => null });
  await expect(signedOut.transport.pull('tag', undefined, 10)).rejects.toBeInstanceOf(SyncAuthError);
  expect(sent).toHaveLength(0);
  expect(signedOut.outcomes).toEqual([]);

  const guest = transportOn(fetch, { getToken: () => null, anonymous: true });
  await guest.transport.pull('tag', undefined, 10);
  expect(headerOf(sent[0]!, 'authorization')).toBeUndefined();
  expect(guest.outcomes).toEqual(['ok']);
});

test('a network failure is unreachable; a request that hears nothing is given up by the stall guard', async () => {
  const down = transportOn(fakeFetch(new TypeError('Failed to fetch')).fetch);
  await expect(down.transport.pull('tag', undefined, 10)).rejects.toThrow('Failed to fetch');
  expect(down.outcomes).toEqual(['unreachable']);

  // A black-holed connection: fetch never answers until its signal aborts.
  let signal: AbortSignal | undefined;
  const silent = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    signal = init?.signal ?? undefined;
    return new Promise<Response>((_resolve, reject) => signal!.addEventListener('abort', () => reject(signal!.reason)));
  }) as typeof globalThis.fetch;
  const stalled = transportOn(silent, { requestStallMs: 50 });
  await expect(stalled.transport.pull('tag', undefined, 10)).rejects.toBeInstanceOf(RequestStalledError);
  expect(stalled.outcomes).toEqual(['unreachable']);
});

test('checkpoints belong to one server and one protocol major version', () => {
  const { transport } = transportOn(fakeFetch({}).fetch);
  expect(transport.replicationIdentifier('ed_question')).toBe(`pm-sync-v${PROTOCOL_VERSION.split('.')[0]}-ed_question-http://server.test`);
});

test('the stream sends the token and the protocol version, feeds the clock and hands on a renewed token', async () => {
  const encoder = new TextEncoder();
  const { fetch, sent } = fakeFetch(async () => {
    const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(encoder.encode('data: {"type":"RESYNC"}\n\n')) });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream', [SERVER_TIME_HEADER]: '1700000000000', [SESSION_TOKEN_HEADER]: 'token-2' } });
  });
  const { transport, renewed, samples } = transportOn(fetch);
  const first = await new Promise((resolve) => {
    const sub = transport.stream({ baseDelayMs: 10, maxDelayMs: 10 }).subscribe((e) => {
      sub.unsubscribe();
      resolve(e);
    });
  });
  expect(first).toEqual({ type: 'RESYNC' });
  expect(sent[0]!.url).toBe('http://server.test/api/sync/v1/stream');
  expect(headerOf(sent[0]!, 'authorization')).toBe('Bearer token-1');
  expect(headerOf(sent[0]!, PROTOCOL_HEADER)).toBe(PROTOCOL_VERSION);
  expect(samples).toEqual([1700000000000]);
  expect(renewed).toEqual([['token-1', 'token-2']]);
});

test("the stream hands on a live test's KEY event, and closes its connection when the device goes offline", async () => {
  const encoder = new TextEncoder();
  const signals: AbortSignal[] = [];
  const { fetch } = fakeFetch(async (_url, init) => {
    signals.push(init!.signal!);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encoder.encode('data: {"type":"RESYNC"}\n\ndata: {"type":"KEY","qsid":"qs-1","key":"k"}\n\ndata: {"type":"KEY","qsid":1}\n\n'));
        // Held open, as the server's stream is, until the request is aborted.
        init!.signal!.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')));
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
  const { transport } = transportOn(fetch);
  const events: unknown[] = [];
  const sub = transport.stream({ baseDelayMs: 60_000, maxDelayMs: 60_000 }).subscribe((e) => events.push(e));
  await vi.waitFor(() => expect(events).toHaveLength(2));
  // A malformed KEY event is dropped.
  expect(events).toEqual([{ type: 'RESYNC' }, { type: 'KEY', qsid: 'qs-1', key: 'k' }]);
  expect(signals[0]!.aborted).toBe(false);
  globalThis.dispatchEvent(new Event('offline'));
  expect(signals[0]!.aborted).toBe(true);
  // Back online, it connects again at once (not after the minute's backoff).
  globalThis.dispatchEvent(new Event('online'));
  await vi.waitFor(() => expect(signals).toHaveLength(2));
  sub.unsubscribe();
  expect(signals[1]!.aborted).toBe(true);
});
