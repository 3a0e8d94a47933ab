import type { Hono } from 'hono';
import { evaluateSchema, participantsQuerySchema, resultQuerySchema, submissionSchema } from '../../../../sync-protocol/src/result';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as results from './results.service';

/**
 * Submissions and results. Registering these routes also registers scoring with the push path of
 * replication (sync.service's onAttemptSubmitted), so a pushed submission is scored in the
 * transaction that stores it. Registered before questionRoutes: /question/:id would otherwise
 * take /question/getExamResult.
 */
export function resultRoutes(app: Hono<AppEnv>, deps: Deps) {
  results.registerScoring();
  route(app, deps, 'POST /question/submitUserResponse', async (c) =>
    c.json(results.submit(deps, principalOf(c), await parseJson(c, submissionSchema))),
  );
  route(app, deps, 'GET /question/getExamResult', (c) => c.json(results.getExamResult(deps, principalOf(c), parseQuery(c, resultQuerySchema).qsid)));
  route(app, deps, 'GET /question/getRank', (c) => c.json(results.rank(deps, principalOf(c), parseQuery(c, resultQuerySchema).qsid)));
  route(app, deps, 'PATCH /question/evaluate', async (c) => c.json(results.evaluate(deps, principalOf(c), await parseJson(c, evaluateSchema))));
  route(app, deps, 'GET /generic/getParticipantsCount', (c) => c.json(results.participants(deps, parseQuery(c, participantsQuerySchema).quesSetId)));
}
