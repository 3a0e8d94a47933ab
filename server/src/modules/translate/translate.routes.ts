import type { Hono } from 'hono';
import { z } from 'zod';
import { generateInDiffLangQuerySchema, translateInHtmlSchema, type TranslatorStatus } from '@pm/protocol/translate';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import { withDetails } from '../questions/detailed-error';
import { generateInDiffLang, translateInHtml } from './translate.service';
import { translatorMode } from './translator';

const noQuery = z.strictObject({});

/**
 * Machine translation (docs/configuration.md "Machine translation"): the editor's Generate, a whole selection or set,
 * and whether Generate works here. Registered before questionRoutes, whose /question/:id would
 * otherwise take /question/generateInDiffLang.
 */
export function translateRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /ai/translator', (c) => {
    parseQuery(c, noQuery);
    const mode = translatorMode(deps.config);
    const model = mode === 'real' ? (deps.config.TRANSLATE_MODEL ?? null) : mode === 'demo' ? 'local-demo' : null;
    return c.json({ success: true, data: { mode, model } } satisfies TranslatorStatus);
  });
  route(
    app,
    deps,
    'POST /ai/translateQuestionInHtml',
    withDetails(async (c) => c.json(await translateInHtml(deps, await parseJson(c, translateInHtmlSchema)))),
  );
  route(
    app,
    deps,
    'GET /question/generateInDiffLang',
    withDetails(async (c) => c.json(await generateInDiffLang(deps, principalOf(c), parseQuery(c, generateInDiffLangQuerySchema)))),
  );
}
