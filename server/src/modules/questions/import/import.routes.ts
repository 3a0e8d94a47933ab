import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { z as zod } from 'zod';
import { MSG } from '@pm/protocol/messages';
import { exportQuerySchema, IMPORT_MAX_BYTES, importConfirmSchema, importPreviewSchema } from '@pm/protocol/question-import';
import type { AppEnv, Deps } from '#server/context';
import { AppError, badRequest } from '#server/lib/errors';
import { parseQuery, parseWith } from '#server/lib/http';
import { principalOf, route } from '#server/lib/route';
import { nextTurn } from '#server/lib/slices';
import { csvTemplate } from './csv';
import * as imports from './import.service';

/** Where imports are posted: app.ts leaves their bodies to readImportBody (a larger limit than the API's 1 MiB). */
export const IMPORT_PATHS: ReadonlySet<string> = new Set(['/api/question/import/preview', '/api/question/import']);

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', MSG.importTooLarge);

/**
 * The JSON body of an import, refused (413, nothing read further) past IMPORT_MAX_BYTES: a declared
 * Content-Length is checked first, and a chunked body is counted as it streams.
 */
async function readImportBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  if (!/^application\/json\b/i.test(c.req.header('content-type') ?? '')) throw badRequest('Content-Type must be application/json');
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > IMPORT_MAX_BYTES) throw tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const body = c.req.raw.body;
  if (body) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > IMPORT_MAX_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest(MSG.invalidJson);
  }
  const input = parseWith(schema, json);
  // Parsing a file of megabytes is one piece of work (~15 ms for 10,000 rows); the import's own
  // slices start in a turn of their own, not straight after it (docs/security.md, "Files in and out").
  await nextTurn();
  return input;
}

const noQuery = zod.strictObject({});

/**
 * Import and export of questions (docs/authoring.md "Import and export"), editors only (access.ts). Registered before
 * questionRoutes, whose GET /question/:id would otherwise take /question/export.
 */
export function importRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'POST /question/import/preview', async (c) => c.json(await imports.preview(deps, await readImportBody(c, importPreviewSchema))));
  route(app, deps, 'POST /question/import', async (c) => {
    const actor = principalOf(c);
    return c.json(await imports.confirm(deps, actor, await readImportBody(c, importConfirmSchema)), 201);
  });
  route(app, deps, 'GET /question/import/template.csv', (c) => {
    parseQuery(c, noQuery);
    return c.body(csvTemplate(), 200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="question-import-template.csv"',
    });
  });
  route(app, deps, 'GET /question/export', async (c) => {
    const file = await imports.exportFile(deps, parseQuery(c, exportQuerySchema));
    return c.body(file.text, 200, {
      'content-type': `${file.type}; charset=utf-8`,
      'content-disposition': `attachment; filename="${file.fileName}"`,
      'x-export-skipped': String(file.skipped),
    });
  });
}
