import { z } from 'zod';

/** Stable machine-readable error codes; the HTTP status follows CONVENTIONS rule 5. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  /** A paid set without a plan that allows it (docs/payments.md): the body names `link` '/plan'. */
  'PAYMENT_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UPGRADE_REQUIRED',
  'RATE_LIMITED',
  'INTERNAL',
  /** An outside service we depend on (a payment provider) could not be reached or answered wrongly. */
  'BAD_GATEWAY',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ERROR_STATUS: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UPGRADE_REQUIRED: 426,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
};

/** The one error body of the API (docs/api.md): `{ success: false, msg }` plus a stable code. */
export const apiErrorSchema = z.object({
  success: z.literal(false),
  msg: z.string(),
  code: z.enum(ERROR_CODES),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
