import { z } from 'zod';
import { MSG } from '@pm/protocol/messages';
import type { Deps } from '../../context';
import { badRequest } from '../../lib/errors';

/*
 * Content-Security-Policy violation reports (docs/security.md "Headers, CSP and links"; lib/security-headers names this
 * endpoint in report-uri and report-to). The bodies are the browsers' formats, not our wire, so
 * their schemas live here rather than in sync-protocol: the client never sends them itself.
 */

/** Largest report body taken: a batch of a few reports, each with the policy text (~1 KiB). */
export const MAX_REPORT_BYTES = 16 * 1024;
/** Reports logged from one body; a batch beyond this is a flood, not a diagnosis. */
const MAX_REPORTS = 20;
/** Longest text kept from any field of a report. */
const MAX_FIELD = 300;

const field = z.union([z.string(), z.number()]).optional();

/** `report-uri` (CSP2): `Content-Type: application/csp-report`, one report, kebab-case fields. */
const legacySchema = z.object({
  'csp-report': z.looseObject({
    'document-uri': field,
    'blocked-uri': field,
    'effective-directive': field,
    'violated-directive': field,
    disposition: field,
    'source-file': field,
    'line-number': field,
    'column-number': field,
    'script-sample': field,
  }),
});

/** `report-to` (Reporting API): `Content-Type: application/reports+json`, a batch of reports. */
const reportingSchema = z
  .array(
    z.looseObject({
      type: z.string(),
      body: z.looseObject({
        documentURL: field,
        blockedURL: field,
        effectiveDirective: field,
        disposition: field,
        sourceFile: field,
        lineNumber: field,
        columnNumber: field,
        sample: field,
      }),
    }),
  )
  .min(1)
  .max(100);

/** One violation as it is logged. */
export type Violation = {
  documentURL?: string;
  blockedURL?: string;
  directive?: string;
  disposition?: string;
  sourceFile?: string;
  line?: number;
  column?: number;
  sample?: string;
};

const CONTENT_TYPES = { 'application/csp-report': 'legacy', 'application/reports+json': 'reporting' } as const;

/** Which of the two formats a Content-Type names, or null. */
export function reportFormat(contentType: string | undefined): 'legacy' | 'reporting' | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return Object.hasOwn(CONTENT_TYPES, type) ? CONTENT_TYPES[type as keyof typeof CONTENT_TYPES] : null;
}

const text = (v: string | number | undefined) => (v === undefined ? undefined : String(v).slice(0, MAX_FIELD));
const num = (v: string | number | undefined) => (v === undefined || !Number.isFinite(Number(v)) ? undefined : Number(v));

/**
 * An address as the log keeps it: without query and fragment, where a reset link or a search
 * could carry something personal. Keywords ('inline', 'eval') and bare schemes stay as they are.
 */
function address(v: string | number | undefined): string | undefined {
  const s = text(v);
  if (s === undefined) return undefined;
  const cut = s.search(/[?#]/);
  return cut < 0 ? s : s.slice(0, cut);
}

/** Parses a report body of either format into the violations to log; 400 for anything else. */
export function parseReports(format: 'legacy' | 'reporting', body: string): Violation[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw badRequest(MSG.invalidJson);
  }
  if (format === 'legacy') {
    const r = legacySchema.safeParse(json);
    if (!r.success) throw badRequest(MSG.cspReportInvalid);
    const v = r.data['csp-report'];
    return [
      {
        documentURL: address(v['document-uri']),
        blockedURL: address(v['blocked-uri']),
        directive: text(v['effective-directive'] ?? v['violated-directive']),
        disposition: text(v.disposition),
        sourceFile: address(v['source-file']),
        line: num(v['line-number']),
        column: num(v['column-number']),
        sample: text(v['script-sample']),
      },
    ];
  }
  const r = reportingSchema.safeParse(json);
  if (!r.success) throw badRequest(MSG.cspReportInvalid);
  // The endpoint is named only by the CSP's report-to, so other report types are unexpected;
  // they are accepted (a browser may batch them) but not logged as violations.
  return r.data
    .filter((x) => x.type === 'csp-violation')
    .map(({ body: v }) => ({
      documentURL: address(v.documentURL),
      blockedURL: address(v.blockedURL),
      directive: text(v.effectiveDirective),
      disposition: text(v.disposition),
      sourceFile: address(v.sourceFile),
      line: num(v.lineNumber),
      column: num(v.columnNumber),
      sample: text(v.sample),
    }));
}

/**
 * One warning per violation (at most MAX_REPORTS of a batch), with the id of the request it came
 * in; like the request log, no address or header of the sender.
 */
export function logViolations(deps: Deps, violations: Violation[], meta: { reqId: string }): void {
  for (const v of violations.slice(0, MAX_REPORTS)) deps.log.warn({ ...meta, csp: v }, 'csp violation');
  if (violations.length > MAX_REPORTS) deps.log.warn({ ...meta, dropped: violations.length - MAX_REPORTS }, 'csp violations not logged');
}
