import type { Hono } from 'hono';
import { z } from 'zod';
import { evaluateSchema, participantsQuerySchema, pendingQuerySchema, resultQuerySchema, submissionSchema } from '@pm/protocol/result';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as results from './results.service';

/** Compiled ahead of time by zod (see sync.routes' pushSchema): every online submission is validated with it. */
const submission = z.compile(submissionSchema);

/**
 * Submissions and results. Registered before questionRoutes: /question/:id would otherwise take
 * /question/getExamResult. Scoring itself runs in the push path of replication (deps.afterSubmit,
 * wired in compose.ts), so an online submission and a synced one are scored the same way.
 */
export function resultRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'POST /question/submitUserResponse', async (c) =>
    c.json(await results.submit(deps, principalOf(c), await parseJson(c, submission))),
  );
  route(app, deps, 'GET /question/getExamResult', async (c) => c.json(await results.getExamResult(deps, principalOf(c), parseQuery(c, resultQuerySchema).qsid)));
  route(app, deps, 'GET /question/getRank', async (c) => c.json(await results.rank(deps, principalOf(c), parseQuery(c, resultQuerySchema).qsid)));
  route(app, deps, 'GET /question/getPendingEvaluations', async (c) => c.json(await results.pendingEvaluations(deps, parseQuery(c, pendingQuerySchema))));
  route(app, deps, 'PATCH /question/evaluate', async (c) => c.json(await results.evaluate(deps, principalOf(c), await parseJson(c, evaluateSchema))));
  route(app, deps, 'GET /generic/getParticipantsCount', async (c) => c.json(await results.participants(deps, parseQuery(c, participantsQuerySchema).quesSetId)));
}
