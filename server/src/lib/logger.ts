import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * JSON logs to stdout, buffered (4 KiB) so that a busy server does not make one write per
 * request line; the buffer is flushed on exit (pino's sonic-boom). No secrets are logged: the
 * request log names method, path, status, time and person id only, never headers or bodies
 * (pino's redact option is left off because it slows every log call down).
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: level === 'silent' ? 0 : 4096 });
  const log = pino(
    {
      level,
      base: undefined,
    },
    destination,
  );
  process.once('exit', () => destination.flushSync());
  return log;
}
