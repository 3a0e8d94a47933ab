import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ERROR_STATUS } from '@pm/protocol/errors';
import { MSG } from '@pm/protocol/messages';
import { SERVER_TIME_HEADER } from '@pm/protocol/version';
import type { AppEnv, Deps } from './context';
import { compressApi } from './lib/compression';
import { AppError } from './lib/errors';
import { INSTANCE_HEADER, instanceName } from './lib/instance';
import { webhookDirect } from './modules/payments/webhook-direct';
import { createLoadMonitor, type LoadMonitor, shedOverload } from './lib/overload';
import { sandboxBanner, sandboxBannerOn } from './lib/sandbox-banner';
import { siteSettings, siteSettingsOn } from './lib/site-settings';
import { forwardedOverTls, securityHeaders } from './lib/security-headers';
import { activityLogRoutes } from './modules/activity-log/activity-log.routes';
import { answerFileRoutes } from './modules/answer-file/answer-file.routes';
import { bundleRoutes } from './modules/bundles/bundles.routes';
import { smsAnswerRoutes } from './modules/sms-answers/sms-answers.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { brandRoutes } from './modules/brands/brands.routes';
import { CAMPAIGN_IMAGE_PATH, campaignRoutes } from './modules/campaigns/campaigns.routes';
import { donationRoutes } from './modules/donations/donations.routes';
import { grievanceRoutes } from './modules/grievances/grievances.routes';
import { trustRoutes } from './modules/campaigns/trusts';
import { contactRoutes } from './modules/contact/contact.routes';
import { healthRoutes } from './modules/health/health.routes';
import { permissionRoutes } from './modules/permissions/permissions.routes';
import { personRoutes } from './modules/persons/persons.routes';
import { planRoutes } from './modules/plans/plans.routes';
import { questionRoutes } from './modules/questions/questions.routes';
import { IMPORT_PATHS, importRoutes } from './modules/questions/import/import.routes';
import { resultRoutes } from './modules/results/results.routes';
import { roleRoutes } from './modules/roles/roles.routes';
import { contentRoutes } from './modules/content/content.routes';
import { cspReportRoutes } from './modules/csp-report/csp-report.routes';
import { MEDIA_UPLOAD_PATH, mediaFileRoutes, mediaRoutes } from './modules/media/media.routes';
import { paymentRoutes } from './modules/payments/payments.routes';
import { productRoutes } from './modules/products/products.routes';
import { pushRoutes } from './modules/push/push.routes';
import { reportRoutes } from './modules/reports/reports.routes';
import { liveTestRoutes } from './modules/live-tests/live-tests.routes';
import { syncRoutes } from './modules/sync/sync.routes';
import { tagRoutes } from './modules/tags/tags.routes';
import { translateRoutes } from './modules/translate/translate.routes';
import { sandboxPhonePeRoutes } from './modules/payments/providers/sandbox-phonepe';
import { payoutRoutes } from './modules/payouts/payouts.routes';
import { sandboxRazorpayXRoutes } from './modules/payouts/sandbox-razorpayx';
import { sandboxSmsRoutes } from './modules/sms/sandbox-sms';
import { smsRoutes } from './modules/sms/sms.routes';

/** Largest JSON body the API takes (questions carry rich text; nothing legitimate is bigger). */
export const MAX_BODY_BYTES = 1024 * 1024;

const INSTANCE = randomBytes(4).toString('hex');
let requestCounter = 0;
/**
 * A request id for the logs: this process's random prefix and a counter (cheaper than a UUID per
 * request, and unique across instances through the prefix).
 */
const nextRequestId = () => `${INSTANCE}-${(++requestCounter).toString(36)}`;

function errorBody(code: keyof typeof ERROR_STATUS, msg: string) {
  return { success: false as const, msg, code };
}

export type AppOptions = {
  /** Decides when to refuse API requests with 503 (lib/overload.ts); tests pass their own. */
  load?: LoadMonitor;
  /** How long a push may wait for room before it is refused (lib/overload.ts OVERLOAD.PARK_MAX_MS); tests set their own. */
  parkMaxMs?: number;
};

/**
 * Builds the HTTP app: the API under /api. Static files are added by the caller (index.ts).
 * `app.fetch` is wrapped by the load shedder, which answers 503 + Retry-After before Hono when
 * the server is overloaded; `app.request` (tests) goes through it too.
 */
export function createApp(deps: Deps, opts: AppOptions = {}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Which instance answered (docs/cluster.md): on every response, refusals of the shedder included.
  const instance = instanceName(deps.config);
  // What an answer given before the app carries (a refusal, a webhook's): JSON like any API
  // answer, never sniffed, never cached.
  const apiHeaders = () => ({ [SERVER_TIME_HEADER]: String(Date.now()), 'X-Request-Id': nextRequestId(), [INSTANCE_HEADER]: instance, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' });
  app.fetch = Object.assign(
    shedOverload(app.fetch, {
      monitor: opts.load ?? createLoadMonitor(),
      log: deps.log,
      trustProxy: deps.config.TRUST_PROXY,
      parkMaxMs: opts.parkMaxMs,
      headers: apiHeaders,
    }),
    // The providers' webhooks, served on Node's own request and response (modules/payments/webhook-direct.ts).
    { direct: webhookDirect(deps, apiHeaders) },
  );

  app.use(async (c, next) => {
    const started = performance.now();
    const id = nextRequestId();
    c.set('requestId', id);
    // Every response carries the server clock (ARCHITECTURE decision 5) and the request id.
    // Under Node they go straight onto the outgoing message (Node merges them into writeHead),
    // which spares building a fetch Headers object per response; app.request() in tests has no
    // Node response, and there they go through Hono. Either way they are set before the handler:
    // changing headers of a finished response makes @hono/node-server rebuild it.
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    const set = outgoing ? (n: string, v: string) => outgoing.setHeader(n, v) : (n: string, v: string) => c.header(n, v);
    set(SERVER_TIME_HEADER, String(Date.now()));
    set('X-Request-Id', id);
    set(INSTANCE_HEADER, instance);
    // The security headers (lib/security-headers): the site's CSP, or the API's policy and
    // no-store; HSTS only when TRUST_PROXY says TLS ends in front of us. A route that sets its
    // own Cache-Control (the site's files) overrides the default.
    const tls = deps.config.TRUST_PROXY && forwardedOverTls(c.req.header('x-forwarded-proto'));
    const razorpay = deps.config.PAYMENT_PROVIDER === 'razorpay';
    for (const [name, value] of securityHeaders(c.req.path, tls, { razorpay })) set(name, value);
    await next();
    deps.log.info(
      {
        reqId: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        person: c.get('principal')?.id,
      },
      'request',
    );
  });

  // A production installation paid through the sandbox says so on every page (lib/sandbox-banner).
  if (sandboxBannerOn(deps.config)) app.use(sandboxBanner());
  // The installation's trust name in every page, when it is not the demo's (lib/site-settings).
  if (siteSettingsOn(deps.config)) app.use(siteSettings(deps.config));

  app.onError((err, c) => {
    if (err instanceof AppError) {
      return c.json({ ...err.extra, ...errorBody(err.code, err.message) }, err.status as ContentfulStatusCode);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 401 ? 'UNAUTHENTICATED' : status === 403 ? 'FORBIDDEN' : status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
      const msg = status === 413 ? MSG.payloadTooLarge : status >= 500 ? MSG.serverError : err.message || MSG.someError;
      return c.json(errorBody(code, msg), status as ContentfulStatusCode);
    }
    deps.log.error({ reqId: c.get('requestId'), err }, 'unhandled error');
    return c.json(errorBody('INTERNAL', MSG.serverError), 500);
  });

  const api = new Hono<AppEnv>();
  // JSON answers of 1 kB or more compressed when the client accepts it (docs/benchmarks.md "bench:bundle"); outermost,
  // so that error answers are covered too. The sync stream (text/event-stream) never is.
  api.use(compressApi());
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json(errorBody('PAYLOAD_TOO_LARGE', MSG.payloadTooLarge), 413),
  });
  // Touching `req.body` makes @hono/node-server build a full fetch Request, which costs more than
  // a whole cheap request: GETs skip the check, and a declared Content-Length is checked from the
  // header (Node's parser holds the body to it); only chunked bodies are counted as they stream.
  api.use((c, next) => {
    // An image upload and a question import count their own bodies (modules/media, campaigns, questions/import: their limits, their messages).
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.path === MEDIA_UPLOAD_PATH || IMPORT_PATHS.has(c.req.path) || CAMPAIGN_IMAGE_PATH.test(c.req.path)) return next();
    const length = c.req.header('content-length');
    if (length !== undefined && !c.req.header('transfer-encoding')) {
      return Number(length) > MAX_BODY_BYTES ? Promise.resolve(c.json(errorBody('PAYLOAD_TOO_LARGE', MSG.payloadTooLarge), 413)) : next();
    }
    return limitBody(c, next);
  });
  healthRoutes(api, deps);
  cspReportRoutes(api, deps);
  authRoutes(api, deps);
  personRoutes(api, deps);
  permissionRoutes(api, deps);
  roleRoutes(api, deps);
  activityLogRoutes(api, deps);
  brandRoutes(api, deps);
  reportRoutes(api, deps);
  productRoutes(api, deps);
  contentRoutes(api, deps);
  tagRoutes(api, deps);
  contactRoutes(api, deps);
  pushRoutes(api, deps);
  answerFileRoutes(api, deps);
  bundleRoutes(api, deps);
  smsAnswerRoutes(api, deps);
  planRoutes(api, deps);
  paymentRoutes(api, deps);
  campaignRoutes(api, deps);
  donationRoutes(api, deps);
  grievanceRoutes(api, deps);
  trustRoutes(api, deps);
  payoutRoutes(api, deps);
  smsRoutes(api, deps);
  liveTestRoutes(api, deps);
  // Results first: /question/getExamResult and the like before questionRoutes' /question/:id.
  resultRoutes(api, deps);
  // docs/configuration.md "Machine translation": /question/generateInDiffLang before questionRoutes' /question/:id.
  translateRoutes(api, deps);
  // docs/authoring.md "Import and export": /question/export and /question/import/template.csv before questionRoutes' /question/:id.
  importRoutes(api, deps);
  questionRoutes(api, deps);
  mediaRoutes(api, deps);
  syncRoutes(api, deps);
  app.route('/api', api);
  // Uploaded images: public files outside /api, before the client's files (index.ts).
  mediaFileRoutes(app, deps);
  // The local PhonePe (docs/payments.md), outside /api; the adapter and its webhooks reach it in-process.
  // An installation that takes real payments has none: /sandbox/phonepe/* is then an unknown path.
  if (deps.payments.sandbox) sandboxPhonePeRoutes(app, deps.payments.sandbox, (req) => app.fetch(req));
  // The local RazorpayX (docs/configuration.md "Payouts"), likewise: only where PAYOUT_PROVIDER=sandbox.
  if (deps.payouts.sandbox) sandboxRazorpayXRoutes(app, deps.payouts.sandbox, (req) => app.fetch(req));
  // The local SMS provider (docs/sms.md "The sandbox"), likewise: only where SMS_PROVIDER=sandbox.
  if (deps.sms.sandbox) sandboxSmsRoutes(app, deps.sms.sandbox, (req) => app.fetch(req));
  // A mounted app's notFound is not consulted; the parent answers unknown paths.
  app.notFound((c) => c.json(errorBody('NOT_FOUND', MSG.notFound), 404));
  return app;
}
