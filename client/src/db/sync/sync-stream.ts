import { createParser } from 'eventsource-parser';
import { Observable } from 'rxjs';
import type { StreamEvent } from '@pm/protocol/sync/envelopes';
import { backoffDelay } from './backoff';
import { stallGuard } from './stall-guard';

export type StreamOptions = {
  url: string;
  headers: () => Record<string, string>;
  fetch: typeof fetch;
  /** Called with each response (server time header). */
  onResponse?: (res: Response, sentAt: number) => void;
  /** Called when the server refuses the token (401): no reconnect until restart. */
  onUnauthorized?: () => void;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Reconnect when nothing (not even the server's keep-alive comment, every 15 s) arrived for
   * this long: a connection that went silent (black-holed, half-open) is otherwise never noticed
   * and the device hears of no change again. Default: never.
   */
  stallMs?: number;
};

/**
 * GET /api/sync/v1/stream read through fetch, because EventSource cannot send the bearer token.
 * Reconnects with exponential backoff and jitter after any failure; the server starts every
 * connection with RESYNC, so whatever was missed while disconnected is pulled again.
 * Unsubscribing aborts the request.
 */
export function syncStream(opts: StreamOptions): Observable<StreamEvent> {
  return new Observable<StreamEvent>((subscriber) => {
    const abort = new AbortController();
    let failures = 0;
    let wake: (() => void) | null = null;

    /** 'online' came while no wait was running: the next wait ends at once. */
    let onlineMeanwhile = false;
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        if (onlineMeanwhile) {
          onlineMeanwhile = false;
          resolve();
          return;
        }
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });

    /** The connection open now: closed when the device says it went offline. */
    let connection: AbortController | null = null;
    // Back online: reconnect now rather than after the backoff.
    const onOnline = () => {
      if (wake) wake();
      else onlineMeanwhile = true;
    };
    // Offline: close the connection at once rather than keep a stream that can carry nothing, or
    // (on a network that still holds the old connection) events the device should not count on.
    const onOffline = () => connection?.abort();
    globalThis.addEventListener?.('online', onOnline);
    globalThis.addEventListener?.('offline', onOffline);

    const run = async () => {
      while (!abort.signal.aborted) {
        const conn = new AbortController();
        connection = conn;
        const unlink = linkAbort(abort.signal, conn);
        const guard = opts.stallMs ? stallGuard(opts.stallMs, conn.signal) : null;
        try {
          const sentAt = Date.now();
          const res = await opts.fetch(opts.url, { headers: { accept: 'text/event-stream', ...opts.headers() }, signal: guard?.signal ?? conn.signal, cache: 'no-store' });
          guard?.touch();
          opts.onResponse?.(res, sentAt);
          if (res.status === 401) {
            opts.onUnauthorized?.();
            return;
          }
          if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
          const parser = createParser({
            onEvent(ev) {
              try {
                const data = JSON.parse(ev.data) as StreamEvent;
                if (data.type === 'RESYNC' || data.type === 'CHANGE' || (data.type === 'KEY' && typeof data.qsid === 'string' && typeof data.key === 'string')) {
                  failures = 0;
                  subscriber.next(data);
                }
              } catch {
                // A malformed event is ignored; the next RESYNC repairs whatever it meant.
              }
            },
          });
          const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            guard?.touch();
            parser.feed(value);
          }
          throw new Error('stream ended');
        } catch {
          if (abort.signal.aborted) return;
          failures++;
        } finally {
          guard?.done();
          unlink();
          connection = null;
        }
        if (!abort.signal.aborted) {
          await sleep(backoffDelay(failures, opts.baseDelayMs ?? 1000, opts.maxDelayMs ?? 60_000));
        }
      }
    };
    void run();
    return () => {
      abort.abort();
      wake?.();
      globalThis.removeEventListener?.('online', onOnline);
      globalThis.removeEventListener?.('offline', onOffline);
    };
  });
}

/** Aborts `child` when `parent` aborts; returns the unlink. */
function linkAbort(parent: AbortSignal, child: AbortController): () => void {
  if (parent.aborted) {
    child.abort();
    return () => undefined;
  }
  const onAbort = () => child.abort();
  parent.addEventListener('abort', onAbort, { once: true });
  return () => parent.removeEventListener('abort', onAbort);
}
