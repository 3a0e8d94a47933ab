import type { Hono } from 'hono';
import { z } from 'zod';
import { evaluateSchema, participantsQuerySchema, pendingQuerySchema, resultQuerySchema, submissionSchema } from '../../../../sync-protocol/src/result';
import type { AppEnv, Deps } from '../../context';
import { isClosed } from '../../db/client';
import { parseJson, parseQuery } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as results from './results.service';

/** Compiled ahead of time by zod (see sync.routes' pushSchema): every online submission is validated with it. */
const submission = z.compile(submissionSchema);

/**
 * The start-up repairs: submissions whose scoring failed earlier (logged then) are scored, and
 * the results migration 0006 marked practice replicate again (once per database).
 */
async function repair(deps: Deps): Promise<void> {
  const rescored = await results.scoreUnscored(deps);
  if (rescored > 0) deps.log.warn({ rescored }, 'submitted attempts without a result were scored');
  const resent = await results.replicatePracticeFlags(deps);
  if (resent > 0) deps.log.info({ resent }, 'results marked practice by migration 0006 replicate again');
}

/**
 * Submissions and results. Registering these routes also registers scoring with the push path of
 * replication (sync.service's onAttemptSubmitted), so a pushed submission is scored in the
 * transaction that stores it, and scores any submitted attempt still without a result (the repair
 * for a failed scoring). Registered before questionRoutes: /question/:id would otherwise
 * take /question/getExamResult.
 */
export function resultRoutes(app: Hono<AppEnv>, deps: Deps) {
  results.registerScoring(deps.log);
  // In a turn of the event loop of its own, right after the app is built: its transactions then
  // never meet the statements of whatever the builder's caller goes on to do in this turn.
  setImmediate(() => {
    repair(deps).catch((err: unknown) => {
      // A database closed meanwhile (a stop right after the start) is no failure: the next start repairs.
      if (!isClosed(deps.db)) deps.log.error({ err }, 'start-up repair of results failed');
    });
  });
  route(app, deps, 'POST /question/submitUserResponse', async (c) =>
    c.json(await results.submit(deps, principalOf(c), await parseJson(c, submission))),
  );
  route(app, deps, 'GET /question/getExamResult', async (c) => c.json(await results.getExamResult(deps, principalOf(c), parseQuery(c, resultQuerySchema).qsid)));
  route(app, deps, 'GET /question/getRank', async (c) => c.json(await results.rank(deps, principalOf(c), parseQuery(c, resultQuerySchema).qsid)));
  route(app, deps, 'GET /question/getPendingEvaluations', async (c) => c.json(await results.pendingEvaluations(deps, parseQuery(c, pendingQuerySchema))));
  route(app, deps, 'PATCH /question/evaluate', async (c) => c.json(await results.evaluate(deps, principalOf(c), await parseJson(c, evaluateSchema))));
  route(app, deps, 'GET /generic/getParticipantsCount', async (c) => c.json(await results.participants(deps, parseQuery(c, participantsQuerySchema).quesSetId)));
}
