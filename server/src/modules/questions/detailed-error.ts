import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from '@pm/protocol/errors';
import type { AppEnv } from '../../context';
import { AppError } from '../../lib/errors';

/**
 * A refusal whose body carries more than the message: what the editor's screen needs to act on
 * it without parsing text — the ids of questions not yet approved, the sets keeping a question
 * approved, how many results a set has (docs/authoring.md "Publishing and unpublishing"). The body is the usual
 * `{ success: false, msg, code }` plus these fields.
 */
export class DetailedError extends AppError {
  constructor(
    code: ErrorCode,
    msg: string,
    readonly details: Record<string, unknown>,
  ) {
    super(code, msg);
  }
}

type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

/** Answers a DetailedError thrown by `handler` with its details; every other error goes to app.onError as before. */
export function withDetails(handler: Handler): Handler {
  return async (c) => {
    try {
      return await handler(c);
    } catch (err) {
      if (err instanceof DetailedError) {
        return c.json({ ...err.details, success: false as const, msg: err.message, code: err.code }, err.status as ContentfulStatusCode);
      }
      throw err;
    }
  };
}
