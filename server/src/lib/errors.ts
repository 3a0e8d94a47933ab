import { ERROR_STATUS, type ErrorCode } from '../../../sync-protocol/src/errors';
import { MSG } from '../../../sync-protocol/src/messages';

/** A failure a service reports to its caller; `onError` turns it into `{ success: false, msg }`. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    msg: string,
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
