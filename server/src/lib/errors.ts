import { ERROR_STATUS, type ErrorCode } from '@pm/protocol/errors';
import { MSG } from '@pm/protocol/messages';

/** A failure a service reports to its caller; `onError` turns it into `{ success: false, msg }`. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    msg: string,
    /** More fields of the error body (e.g. `link` of a 402). */
    readonly extra?: Readonly<Record<string, string>>,
  ) {
    super(msg);
    this.status = ERROR_STATUS[code];
  }
}

export const badRequest = (msg: string) => new AppError('BAD_REQUEST', msg);
export const unauthenticated = (msg: string = MSG.loginRequired) => new AppError('UNAUTHENTICATED', msg);
export const forbidden = (msg: string = MSG.permissionDenied) => new AppError('FORBIDDEN', msg);
export const notFound = (msg: string = MSG.notFound) => new AppError('NOT_FOUND', msg);
export const conflict = (msg: string) => new AppError('CONFLICT', msg);
export const tooMany = (msg: string = MSG.tooManyRequests) => new AppError('RATE_LIMITED', msg);
/** A paid set the caller's plans do not allow (docs/payments.md): 402 with a link to the plans. */
export const paymentRequired = (msg: string = MSG.planRequired) => new AppError('PAYMENT_REQUIRED', msg, { link: '/plan' });
