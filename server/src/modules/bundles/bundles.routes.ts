import type { Hono } from 'hono';
import { z } from 'zod';
import { BUNDLE_MIME, type BundleKeysResponse } from '@pm/protocol/bundle';
import { idSchema } from '@pm/protocol/common';
import type { AppEnv, Deps } from '../../context';
import { parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import { loadBundleKeys } from './bundle-key';
import { exportBundle } from './bundles.service';

/**
 * Tests handed from phone to phone (docs/live-tests.md "A test handed from phone to phone"): the
 * public keys devices check bundles with, and a signed bundle of a set.
 */
export function bundleRoutes(app: Hono<AppEnv>, deps: Deps) {
  // Generated into DATA_DIR (or read from the environment) when the app is built, i.e. on start.
  const keys = loadBundleKeys(deps.config);
  // Awaited by the handlers; a failure shows there (500), not as an unhandled rejection.
  keys.catch((err: unknown) => deps.log.error({ err }, 'bundle signing key could not be loaded'));

  route(app, deps, 'GET /bundle/v1/keys', async (c) => {
    parseQuery(c, z.strictObject({}));
    return c.json({ success: true, keys: (await keys).keys } satisfies BundleKeysResponse);
  });

  route(app, deps, 'GET /bundle/v1/sets/:id', async (c) => {
    parseQuery(c, z.strictObject({}));
    const { name, bytes } = await exportBundle(deps, principalOf(c), parseWith(idSchema, c.req.param('id')), await keys);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': BUNDLE_MIME,
      'content-disposition': `attachment; filename="${name}"`,
      // Signed for this caller's rights at this moment: no shared cache keeps it.
      'cache-control': 'private, no-store',
    });
  });
}
