import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { AppError, forbidden } from '../../lib/errors';
import { idSchema } from '@pm/protocol/common';
import { MSG } from '@pm/protocol/messages';
import { edQuestionDocSchema } from '@pm/protocol/sync/ed-question';
import { edQuestionSetDocSchema } from '@pm/protocol/sync/ed-question-set';
import { readsCompactDist } from '@pm/protocol/sync/score-dist';
import { collectionSchema, isEditorCollection, PROTOCOL_HEADER, PROTOCOL_VERSION, PUSHABLE, pullQuerySchema, pushRowsSchema, type StreamEvent } from '@pm/protocol/sync/envelopes';
import { testSummaryDocSchema } from '@pm/protocol/sync/test-summary';
import type { AppEnv, Deps } from '../../context';
import { parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import { EDITOR_PERMISSION, pullEditor, pushEdQuestionSets, pushEdQuestions } from './editor-sync';
import { previewSet } from './set-preview';
import * as sync from './sync.service';

const MAJOR = PROTOCOL_VERSION.split('.')[0];

/** A device speaking another major version of the protocol must update first (426). */
function checkProtocol(c: Context<AppEnv>) {
  const v = c.req.header(PROTOCOL_HEADER);
  if (!v || v.split('.')[0] !== MAJOR) {
    throw new AppError('UPGRADE_REQUIRED', `This app is out of date. Please update it (sync protocol ${PROTOCOL_VERSION}).`);
  }
}

/**
 * The push body, compiled ahead of time by zod (z.compile): a submission carries an answer per
 * question, and the generated fast path validates it ~4× faster than zod's per-node runtime.
 * Invalid input falls back to the runtime parser, so errors and messages are the same.
 */
const pushSchema = z.compile(pushRowsSchema(testSummaryDocSchema));
/** The push body of the editors' question bank (docs/authoring.md "Offline authoring"). */
const edPushSchema = pushRowsSchema(edQuestionDocSchema);
const edSetPushSchema = pushRowsSchema(edQuestionSetDocSchema);

/** Keep-alive comments keep proxies and mobile networks from closing an idle stream. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * Most live streams one person holds on one server instance (docs/security.md "Every limit": one learner held 200).
 * A device holds one (its tabs elect one leader), so five covers a phone, a tablet, a laptop and
 * spares. Beyond it the oldest stream is closed rather than the new one refused: the oldest is
 * the likeliest to be a connection its device has already lost (a phone that changed networks
 * leaves a half-open socket the server only notices much later), and a closed device reconnects
 * with backoff and resyncs, so nothing is missed.
 */
export const MAX_STREAMS_PER_PERSON = 5;

/**
 * The live streams of each person on this instance, oldest first (a Set keeps insertion order).
 * Per app, not per process: each app (and test harness) counts its own.
 */
function streamSlots() {
  const live = new Map<string, Set<() => void>>();
  return {
    /** Takes a slot for a new stream and closes the oldest beyond the cap; returns the release. */
    open(personId: string, close: () => void): () => void {
      let mine = live.get(personId);
      if (!mine) live.set(personId, (mine = new Set()));
      mine.add(close);
      while (mine.size > MAX_STREAMS_PER_PERSON) {
        const oldest = mine.values().next().value!;
        mine.delete(oldest);
        oldest();
      }
      const held = mine;
      return () => {
        held.delete(close);
        if (held.size === 0 && live.get(personId) === held) live.delete(personId);
      };
    },
  };
}

export function syncRoutes(app: Hono<AppEnv>, deps: Deps) {
  const slots = streamSlots();
  // A set as a learner's device would hold it, for its editor (set-preview.ts): under /question,
  // with the authoring routes, but built by this module's document builders.
  route(app, deps, 'GET /question/previewQuestionSet/:id', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json(await previewSet(deps, parseWith(idSchema, c.req.param('id'))));
  });
  route(app, deps, 'GET /sync/v1/stream', (c) => {
    checkProtocol(c);
    const me = principalOf(c);
    return streamSSE(c, async (stream) => {
      const send = (e: StreamEvent) => stream.writeSSE({ data: JSON.stringify(e) });
      let unsubscribe = () => undefined as void;
      // Ends the keep-alive wait at once when the stream is closed or aborted.
      let wake = () => undefined as void;
      const release = slots.open(me.id, () => {
        void stream.close();
        wake();
      });
      stream.onAbort(() => {
        unsubscribe();
        release();
        wake();
      });
      try {
        // Whatever happened while this device was away, it learns by pulling everything.
        await send({ type: 'RESYNC' });
        if (stream.aborted || stream.closed) return;
        unsubscribe = deps.events.subscribe(me.id, (collections, keys) => {
          // A released live-test key goes first, in the stream itself (docs/live-tests.md "The key at scale").
          for (const k of keys ?? []) void send({ type: 'KEY', qsid: k.qsid, key: k.key }).catch(() => unsubscribe());
          void send({ type: 'CHANGE', collections }).catch(() => unsubscribe());
        });
        while (!stream.aborted && !stream.closed) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, KEEP_ALIVE_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          if (stream.aborted || stream.closed) break;
          await stream.write(': keep-alive\n\n');
        }
      } finally {
        release();
        unsubscribe();
      }
    });
  });

  route(app, deps, 'GET /sync/v1/:collection/pull', async (c) => {
    checkProtocol(c);
    const collection = parseWith(collectionSchema, c.req.param('collection'));
    const { rev, limit, g } = parseQuery(c, pullQuerySchema);
    if (isEditorCollection(collection)) return c.json(await pullEditor(deps, principalOf(c), collection, rev, limit));
    // A guest (no login) pulls what guests may hold (sync.service GUEST_COLLECTIONS); else 401.
    const compactDist = readsCompactDist(c.req.header(PROTOCOL_HEADER));
    return c.json(await sync.pull(deps, c.get('principal') ?? null, collection, rev, limit, { g, compactDist }));
  });

  route(app, deps, 'POST /sync/v1/:collection/push', async (c) => {
    checkProtocol(c);
    const collection = parseWith(collectionSchema, c.req.param('collection'));
    if (!PUSHABLE.includes(collection)) throw forbidden(MSG.permissionDenied);
    // Overload is refused before the app sees the request (lib/overload.ts), not here: by the time
    // a handler runs, the queue in front of it has already formed.
    if (isEditorCollection(collection)) {
      // Editors only, before the body is read (editor-sync.ts).
      const me = principalOf(c);
      if (!me.permissions.has(EDITOR_PERMISSION)) throw forbidden(MSG.permissionDenied);
      if (collection === 'ed_question_set') return c.json(await pushEdQuestionSets(deps, me, await parseJson(c, edSetPushSchema)));
      return c.json(await pushEdQuestions(deps, me, await parseJson(c, edPushSchema)));
    }
    const rows = await parseJson(c, pushSchema);
    return c.json(await sync.pushTestSummaries(deps, principalOf(c), rows));
  });
}
