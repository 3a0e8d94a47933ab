import type { Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '../../../../sync-protocol/src/common';
import {
  questionCountQuerySchema,
  questionInputSchema,
  questionListQuerySchema,
  questionUpdateSchema,
} from '../../../../sync-protocol/src/question';
import { questionSetListQuerySchema, questionSetSaveSchema } from '../../../../sync-protocol/src/question-set';
import type { Context } from 'hono';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { forbidden, unauthenticated } from '../../lib/errors';
import { principalOf, route } from '../../lib/route';
import { MSG } from '../../../../sync-protocol/src/messages';
import * as sets from './question-sets.service';
import * as questions from './questions.service';

const noQuery = z.strictObject({});

/** Whether the caller authors questions: reads of the bank are then unrestricted. */
const editorOf = (c: Context<AppEnv>) => ({ editor: c.get('principal')?.permissions.has('QUESTION_EDITOR') ?? false });

/**
 * Questions and question sets (spec §7). Hono tries routes in registration order: the static
 * /question/… paths come before /question/:id, and app.ts registers the results routes (which
 * also live under /question/…) before these.
 */
export function questionRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /question/getQuestionsCount', (c) => c.json(questions.countOf(deps, parseQuery(c, questionCountQuerySchema))));
  route(app, deps, 'GET /question/getQuestionSetList', (c) => c.json(sets.listSets(deps, parseQuery(c, questionSetListQuerySchema), editorOf(c))));
  route(app, deps, 'GET /question/getQuestionSet/:id', (c) => {
    parseQuery(c, noQuery);
    return c.json(sets.getSet(deps, parseWith(idSchema, c.req.param('id')), editorOf(c)));
  });
  route(app, deps, 'PATCH /question/updateQuestionSet', async (c) => {
    const body = await parseJson(c, questionSetSaveSchema);
    const r = sets.saveSet(deps, principalOf(c), body);
    return c.json(r, body.id === undefined ? 201 : 200);
  });
  route(app, deps, 'DELETE /question/deleteQuestionSet/:id', (c) =>
    c.json(sets.deleteSet(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))),
  );

  route(app, deps, 'GET /question', (c) => {
    const query = parseQuery(c, questionListQuerySchema);
    const who = editorOf(c);
    // Listing or filtering the bank is authoring: as a permission route would, 401 without a
    // login, else 403. Reading questions by id is open: each id as question-access.ts decides.
    if (!who.editor && !questions.isReadByIds(query)) {
      if (!c.get('principal')) throw unauthenticated(MSG.loginRequired);
      throw forbidden(MSG.permissionDenied);
    }
    return c.json(questions.list(deps, query, who));
  });
  route(app, deps, 'POST /question', async (c) => c.json(questions.create(deps, principalOf(c), await parseJson(c, questionInputSchema)), 201));
  route(app, deps, 'PATCH /question', async (c) => c.json(questions.update(deps, principalOf(c), await parseJson(c, questionUpdateSchema))));
  route(app, deps, 'GET /question/:id', (c) => {
    parseQuery(c, noQuery);
    return c.json(questions.get(deps, parseWith(idSchema, c.req.param('id')), editorOf(c)));
  });
  route(app, deps, 'DELETE /question/:id', (c) => c.json(questions.remove(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))));
}
