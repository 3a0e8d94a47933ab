import type { Hono } from 'hono';
import { MSG } from '@pm/protocol/messages';
import type { AppEnv, Deps } from '../../context';
import { AppError, badRequest } from '../../lib/errors';
import { clientIp } from '../../lib/http';
import { route } from '../../lib/route';
import { logViolations, MAX_REPORT_BYTES, parseReports, reportFormat } from './csp-report.service';

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', MSG.payloadTooLarge);

/**
 * The body as text, refused (413) past `max` bytes: a declared Content-Length is checked before
 * anything is read, a chunked body as it streams (the API's own limit is 1 MiB, app.ts).
 */
async function readCapped(req: Request, max: number): Promise<string> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > max) throw tooLarge();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function cspReportRoutes(app: Hono<AppEnv>, deps: Deps) {
  // Public (browsers send reports without credentials) and so limited per address before the
  // body is read; a refused report is lost, which is acceptable for a diagnosis.
  route(app, deps, 'POST /csp-report', async (c) => {
    await deps.rates.consume('cspReportIp', clientIp(c, deps.config.TRUST_PROXY));
    const format = reportFormat(c.req.header('content-type'));
    if (!format) throw badRequest(MSG.cspReportType);
    const violations = parseReports(format, await readCapped(c.req.raw, MAX_REPORT_BYTES));
    logViolations(deps, violations, { reqId: c.get('requestId') });
    return c.body(null, 204);
  });
}
