/**
 * A sync request that hears nothing for this long is given up and retried: a black-holed or
 * half-open connection otherwise held its collection's replication for good.
 */
export const REQUEST_STALL_MS = 20_000;
/** The sync stream is reconnected after this long without a byte (the server writes every 15 s). */
export const STREAM_STALL_MS = 40_000;

/** A request that heard nothing from the server for too long (see stallGuard). */
export class RequestStalledError extends Error {
  constructor(ms: number) {
    super(`no answer from the server for ${Math.round(ms / 1000)} s`);
    this.name = 'RequestStalledError';
  }
}

export type StallGuard = {
  /** Pass to fetch: aborted after `ms` without progress (or when `outer` aborts). */
  signal: AbortSignal;
  /** Progress was made (headers or a chunk of the body arrived): the wait starts again. */
  touch(): void;
  /** The request is over: no more waiting. */
  done(): void;
};

/**
 * Gives up a request that makes no progress for `ms`: no headers, or no further chunk of the
 * body. fetch itself never gives up; a connection that a network black-holes, or whose answers
 * are lost on the way back (half-open), keeps the request, and everything queued behind it,
 * waiting for good (docs/offline-integrity.md "The network", found through scripts/fault-proxy.ts). Progress-based rather
 * than a total deadline, so that a large pull page over a slow but working link still completes.
 */
export function stallGuard(ms: number, outer?: AbortSignal): StallGuard {
  const ac = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => clearTimeout(timer);
  const touch = () => {
    stop();
    if (!ac.signal.aborted) timer = setTimeout(() => ac.abort(new RequestStalledError(ms)), ms);
  };
  const onOuter = () => {
    stop();
    ac.abort(outer?.reason);
  };
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  touch();
  return {
    signal: ac.signal,
    touch,
    done() {
      stop();
      outer?.removeEventListener('abort', onOuter);
    },
  };
}

/** Reads a response's body as text, telling the guard of each chunk that arrives. */
export async function readText(res: Response, guard: StallGuard): Promise<string> {
  if (!res.body) return res.text();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    guard.touch();
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
