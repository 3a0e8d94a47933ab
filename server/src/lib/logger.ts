import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs to stdout. Auth headers and cookies are redacted should anything log them. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
      censor: '[redacted]',
    },
  });
}
