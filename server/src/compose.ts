import type { BaseDeps, Deps } from './context';
import { isClosed } from './db/client';
import { createAfterAnswer, localInboxFile } from './lib/outbox';
import { startPlanExpiry } from './modules/entitlements/entitlements.service';
import { startLiveRelease } from './modules/live-tests/live-tests.service';
import { createPaymentServices } from './modules/payments/providers/index';
import { startReconciler } from './modules/payments/reconcile';
import { createWebhookInbox } from './modules/payments/webhook-inbox';
import { donationMoney } from './modules/donations/donation-money';
import { createPayoutServices } from './modules/payouts/payout-services';
import { createPushService, resultReadyHook, startPushJobs } from './modules/push/push.service';
import type { PushSender } from './modules/push/sender';
import { indexMissingQuestions } from './modules/questions/question-index';
import { repairResults, scoringHook } from './modules/results/results.service';
import { distributionOnResultsOpen, startDistributionJob } from './modules/results/score-dist';
import { answerCodeHandler } from './modules/sms-answers/sms-answers.service';
import { createSmsOutbox, startSmsFallback } from './modules/sms/sms-outbox';
import { createSmsServices } from './modules/sms/sms-services';
import { startPublisher } from './modules/questions/publish';
import { createLazyTranslator } from './modules/translate/translator';

/*
 * The composition root of the server (docs/architecture.md): the one place that builds the
 * services from the process's adapters, wires what reacts to a submitted attempt, and starts and
 * stops every job. index.ts keeps only process concerns (environment, database, signals); the test
 * harness and the benchmarks build their apps through the same functions.
 */

export type ComposeOptions = {
  /** How push messages leave (web-push's real sender unless a test passes the local one's). */
  pushSender?: PushSender;
};

/**
 * Deps for services and routes: the base adapters, the services made from them, and the hooks.
 * Every per-app service is made here, once, and reached through deps; none hides in a module.
 */
export function composeDeps(given: BaseDeps, opts: ComposeOptions = {}): Deps {
  // SMS through the provider's adapter (or the local sandbox; app.ts mounts its routes), e-mail
  // through the outbox given; with no provider, SMS stay with that outbox too (docs/sms.md).
  const sms = createSmsServices(given.config, { inboxFile: localInboxFile(given.config) });
  const smsOutbox = sms.adapter ? createSmsOutbox(given, given.outbox, sms.adapter) : null;
  const base: BaseDeps = smsOutbox ? { ...given, outbox: smsOutbox } : given;
  const push = createPushService(base, { sender: opts.pushSender });
  const deps: Deps = {
    ...base,
    sms: { ...sms, outbox: smsOutbox },
    afterAnswer: createAfterAnswer(base.log),
    // The providers, and the local PhonePe unless this installation takes real payments only;
    // app.ts mounts the sandbox's routes.
    payments: createPaymentServices(base.config),
    // The payout adapter (RazorpayX, or the local one: app.ts mounts its routes), for withdrawals.
    payouts: createPayoutServices(base.config),
    // Nothing is started until Generate is first used (the local translator listens on a port).
    translator: createLazyTranslator(base.config),
    push,
    // Orders of kinds other than a plan: what their captures and payment do with the money (a
    // donation's: the campaign's and the trust's legs, the receipt number and its e-mail).
    orderKinds: { DONATION: donationMoney(base) },
    // What a submitted attempt sets off, in this order, inside the transaction that stores it
    // (sync.service pushTestSummaries, and the start-up repair):
    //   1. scoring (modules/results) writes the exam result;
    //   2. the result-ready message (modules/push), after the commit, for a submission made offline.
    afterSubmit: [scoringHook(base.log), resultReadyHook(push)],
    // What a live test's results opening at its result time sets off (live-tests releaseDue): its
    // score distribution is built at once, for the provisional rank on devices (modules/results).
    afterResultsOpen: [distributionOnResultsOpen(base)],
    // Inbound text messages, after the SMS adapter has checked the provider's signature; the
    // first handler that knows the message's kind takes it (docs/sms.md).
    smsInbound: [],
    // Set just below: the inbox applies deliveries with these very deps.
    webhooks: undefined as unknown as Deps['webhooks'],
  };
  deps.webhooks = createWebhookInbox(deps);
  // Answer codes (modules/sms-answers) store attempts with these very deps.
  deps.smsInbound.push(answerCodeHandler(deps));
  return deps;
}

/**
 * The start-up repairs, once the app is built: questions without search text are indexed, and
 * submissions whose scoring failed are scored (results.repairResults). Each starts in a turn of the
 * event loop of its own, so that its transactions never meet the statements of whatever the caller
 * goes on to do in this turn. Settles (never rejects) once both are over; a failure is logged, and
 * a database closed meanwhile (a stop right after the start) is no failure: the next start repairs.
 */
export function startRepairs(deps: Deps): Promise<void> {
  const inTurnOfItsOwn = (what: string, job: () => Promise<unknown>) =>
    new Promise<void>((resolve) => {
      setImmediate(() => {
        job()
          .catch((err: unknown) => {
            if (!isClosed(deps.db)) deps.log.error({ err }, `${what} failed`);
          })
          .finally(resolve);
      });
    });
  return Promise.all([
    inTurnOfItsOwn('indexing questions at start', async () => {
      const indexed = await indexMissingQuestions(deps.db);
      if (indexed > 0) deps.log.info({ indexed }, 'questions without search text were indexed');
    }),
    inTurnOfItsOwn('start-up repair of results', () => repairResults(deps)),
  ]).then(() => undefined);
}

export type JobOptions = {
  /** The publish job's interval; new sets are announced after each run. */
  publishEveryMs: number;
  /** The score distribution job's interval (default DIST_REFRESH_MS). */
  scoreDistEveryMs?: number;
};

/**
 * Every background job of a serving instance, in one list; resolves to the function that stops
 * them all. Jobs that must run once across instances take their lock themselves (lib/exclusive).
 */
export async function startJobs(deps: Deps, opts: JobOptions): Promise<() => void> {
  void startRepairs(deps);
  const stops = [
    // Sets whose publish time has come are published (the first run is awaited: pages served
    // from now on show them).
    await startPublisher(deps, opts.publishEveryMs),
    // Orders the provider has not told us about are asked for; the webhook inbox is worked off.
    startReconciler(deps),
    // Plans that ended replicate their new state to the learner's devices.
    startPlanExpiry(deps),
    // Sets' score distributions, for the provisional rank on devices (docs/live-tests.md "Provisional rank on the device").
    startDistributionJob(deps, opts.scoreDistEveryMs),
    // Web Push: new sets after each publish interval, plan reminders hourly.
    startPushJobs(deps, { setsEveryMs: opts.publishEveryMs }),
    // SMS not delivered in time go again by e-mail (docs/sms.md "Delivery reports and the e-mail fallback").
    ...(deps.sms.outbox ? [startSmsFallback(deps, deps.sms.outbox)] : []),
    // Live tests: keys released at their start, results opened at their result time (docs/live-tests.md "The key schedule").
    startLiveRelease(deps),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
