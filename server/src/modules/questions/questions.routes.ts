import type { Hono } from 'hono';
import { z } from 'zod';
import { idSchema } from '@pm/protocol/common';
import {
  questionCountQuerySchema,
  questionInputSchema,
  questionListQuerySchema,
  questionRestoreSchema,
  questionStatusUpdateSchema,
  questionUpdateSchema,
} from '@pm/protocol/question';
import { questionSetListQuerySchema, questionSetSaveSchema, unpublishBodySchema } from '@pm/protocol/question-set';
import type { Context } from 'hono';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { forbidden, unauthenticated } from '../../lib/errors';
import { principalOf, route } from '../../lib/route';
import { MSG } from '@pm/protocol/messages';
import { downloadAccess } from '../entitlements/entitlements.service';
import { withDetails } from './detailed-error';
import type { Reader } from './question-access';
import { history } from './question-history';
import * as sets from './question-sets.service';
import * as questions from './questions.service';

const noQuery = z.strictObject({});

/** Whether the caller authors questions: reads of the bank are then unrestricted. */
const editorOf = (c: Context<AppEnv>) => ({ editor: c.get('principal')?.permissions.has('QUESTION_EDITOR') ?? false });

/**
 * Who reads question content (question-access.ts Reader): an editor, or someone who reads paid
 * sets' questions only as far as their plan lets them start those sets (docs/payments.md).
 */
function readerOf(deps: Deps, c: Context<AppEnv>): Reader {
  const { editor } = editorOf(c);
  if (editor) return { editor };
  const me = c.get('principal');
  return { editor, download: me ? () => downloadAccess(deps.db, me.id) : () => Promise.resolve('') };
}

/**
 * Questions and question sets (docs/exams.md), review, history and preview (docs/authoring.md). Hono tries
 * routes in registration order: the static /question/… paths come before /question/:id, and
 * app.ts registers the results routes (which also live under /question/…) before these.
 * Questions that have no search text yet are indexed at start (compose.ts, question-index.ts).
 */
export function questionRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /question/getQuestionsCount', async (c) => c.json(await questions.countOf(deps, parseQuery(c, questionCountQuerySchema))));
  route(
    app,
    deps,
    'PATCH /question/updateStatus',
    withDetails(async (c) => c.json(await questions.updateStatus(deps, principalOf(c), await parseJson(c, questionStatusUpdateSchema)))),
  );
  route(app, deps, 'GET /question/getQuestionHistory/:id', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await history(deps.db, parseWith(idSchema, c.req.param('id'))));
  });
  route(
    app,
    deps,
    'POST /question/restoreQuestionVersion',
    withDetails(async (c) => c.json(await questions.restore(deps, principalOf(c), await parseJson(c, questionRestoreSchema)))),
  );
  route(app, deps, 'GET /question/getQuestionSetList', async (c) => c.json(await sets.listSets(deps, parseQuery(c, questionSetListQuerySchema), editorOf(c))));
  route(app, deps, 'GET /question/getQuestionSet/:id', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await sets.getSet(deps, parseWith(idSchema, c.req.param('id')), editorOf(c)));
  });
  route(
    app,
    deps,
    'PATCH /question/updateQuestionSet',
    withDetails(async (c) => {
      const body = await parseJson(c, questionSetSaveSchema);
      const r = await sets.saveSet(deps, principalOf(c), body);
      return c.json(r, body.id === undefined ? 201 : 200);
    }),
  );
  route(app, deps, 'PATCH /question/unpublishQuestionSet', async (c) => {
    const { id } = await parseJson(c, unpublishBodySchema);
    return c.json(await sets.unpublishSet(deps, principalOf(c), id));
  });
  route(app, deps, 'DELETE /question/deleteQuestionSet/:id', async (c) =>
    c.json(await sets.deleteSet(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))),
  );

  route(app, deps, 'GET /question', async (c) => {
    const query = parseQuery(c, questionListQuerySchema);
    const who = readerOf(deps, c);
    // Listing or filtering the bank is authoring: as a permission route would, 401 without a
    // login, else 403. Reading questions by id is open: each id as question-access.ts decides.
    if (!who.editor && !questions.isReadByIds(query)) {
      if (!c.get('principal')) throw unauthenticated(MSG.loginRequired);
      throw forbidden(MSG.permissionDenied);
    }
    return c.json(await questions.list(deps, query, who));
  });
  route(app, deps, 'POST /question', async (c) => c.json(await questions.create(deps, principalOf(c), await parseJson(c, questionInputSchema)), 201));
  route(
    app,
    deps,
    'PATCH /question',
    withDetails(async (c) => c.json(await questions.update(deps, principalOf(c), await parseJson(c, questionUpdateSchema)))),
  );
  route(app, deps, 'GET /question/:id', async (c) => {
    parseQuery(c, noQuery);
    return c.json(await questions.get(deps, parseWith(idSchema, c.req.param('id')), readerOf(deps, c)));
  });
  route(
    app,
    deps,
    'DELETE /question/:id',
    withDetails(async (c) => c.json(await questions.remove(deps, principalOf(c), parseWith(idSchema, c.req.param('id'))))),
  );
}
