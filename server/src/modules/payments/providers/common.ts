import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { MSG } from '@pm/protocol/messages';
import { AppError } from '#server/lib/errors';

/** The fetch an adapter calls the provider with: the global one, or the app's own (the sandbox). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** How long one call to a provider may take before it counts as unreachable. */
export const PROVIDER_TIMEOUT_MS = 15_000;

/** 502: the provider could not be reached, timed out, or answered 5xx or nonsense. */
export function providerUnavailable(cause?: unknown): AppError {
  const err = new AppError('BAD_GATEWAY', MSG.providerUnavailable);
  if (cause !== undefined) Object.defineProperty(err, 'cause', { value: cause, enumerable: false });
  return err;
}

/** The provider refused to create the order (a 4xx it will not change its mind on). */
export function orderRefused(cause?: unknown): AppError {
  const err = new AppError('BAD_GATEWAY', MSG.failedToCreateOrder);
  if (cause !== undefined) Object.defineProperty(err, 'cause', { value: cause, enumerable: false });
  return err;
}

export type ProviderAnswer = { status: number; json: unknown };

/**
 * One HTTP call to a provider. A network error, a timeout or a 5xx throws the 502 above; any
 * other answer is returned with its parsed JSON body (null when it has none) for the adapter to
 * read. Never retried here: pay and create-order are not idempotent at every provider.
 */
export async function callProvider(fetchImpl: FetchLike, url: string, init: RequestInit): Promise<ProviderAnswer> {
  let res: Response;
  try {
    res = await fetchImpl(url, { ...init, signal: init.signal ?? AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (err) {
    throw providerUnavailable(err);
  }
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw providerUnavailable(err);
  }
  if (res.status >= 500) throw providerUnavailable(new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`));
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch (err) {
      if (res.ok) throw providerUnavailable(err);
    }
  }
  return { status: res.status, json };
}

export const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
export const hmacSha256Hex = (key: string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest('hex');

/**
 * Compares a value received (a signature, an Authorization header) with the expected one in
 * constant time. timingSafeEqual needs buffers of equal length: a received value of another
 * length is refused before it, which reveals only that length (the expected one is public: 64
 * hex digits).
 */
export function safeEqual(received: string | null | undefined, expected: string): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(received, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
