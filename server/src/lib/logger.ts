import { writeSync } from 'node:fs';
import { pino, type Logger } from 'pino';

export type { Logger };

/** Info lines wait in memory until about 4 KiB are buffered (one write per ~20 request lines). */
const BUFFER_CHARS = 4096;
/** ...or until this long has passed, so that a quiet server's log is never far behind. */
const FLUSH_EVERY_MS = 1000;
/** How long to wait before trying again when the reader of a non-blocking pipe is behind. */
const BUSY_WAIT_MS = 5;

/**
 * Lines written to a file descriptor, in order, with write(2) called on the thread that logs:
 * `write` buffers, `flush` hands everything buffered to the kernel before it returns. A process
 * killed with -9 after `flush` has lost nothing of it (the kernel holds it), which no
 * asynchronous writer can promise.
 */
function lineWriter(fd: number) {
  let buffered: string[] = [];
  let pending = 0; // characters buffered (a byte count would cost an encoding per line)
  // pino's logger.flush(cb) calls it with a callback.
  const flush = (done?: () => void) => {
    if (pending === 0) return done?.();
    let data = Buffer.from(buffered.join(''));
    buffered = [];
    pending = 0;
    while (data.length > 0) {
      try {
        data = data.subarray(writeSync(fd, data));
      } catch (err) {
        // stdout may be a non-blocking pipe whose reader is behind: wait for it, as pino's own
        // writer does (sonic-boom), rather than lose the line.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_WAIT_MS);
      }
    }
    done?.();
  };
  return {
    write(line: string) {
      buffered.push(line);
      pending += line.length;
      if (pending >= BUFFER_CHARS) flush();
    },
    flush,
  };
}

/**
 * JSON logs to stdout. Info and below are buffered (4 KiB, or 1 s) so that a busy server does not
 * make one write per request line; a warning or worse flushes the buffer and itself before the
 * log call returns, so it reaches the log before the request that caused it is answered and
 * survives a crash (docs/security.md "Production, load shedding, logs, files": warnings of a kill -9'd process were never written). Lines keep
 * their order. The buffer is flushed on exit. No secrets are logged: the request log names
 * method, path, status, time and person id only, never headers or bodies (pino's redact option is
 * left off because it slows every log call down).
 */
export function createLogger(level: string): Logger {
  if (level === 'silent') return pino({ level, base: undefined, enabled: false });
  const out = lineWriter(1);
  const urgent = pino.levels.values.warn ?? 40;
  const log = pino(
    {
      level,
      base: undefined,
      hooks: {
        logMethod(args, method, lineLevel) {
          method.apply(this, args);
          if (lineLevel >= urgent) out.flush();
        },
      },
    },
    out,
  );
  setInterval(() => out.flush(), FLUSH_EVERY_MS).unref();
  process.once('exit', () => out.flush());
  return log;
}
