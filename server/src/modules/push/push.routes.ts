import type { Hono } from 'hono';
import { pushSubscriptionSchema, pushUnsubscribeSchema, type PushPublicKeyResponse } from '@pm/protocol/push';
import type { AppEnv, Deps } from '../../context';
import { parseJson } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import { removeSubscription, saveSubscription } from './push.service';

/**
 * Web Push (docs/configuration.md "Push messages (Web Push)"): the VAPID public key devices subscribe with, and a device's
 * subscription, sent on the spec's path for the push token (docs/api.md).
 */
export function pushRoutes(app: Hono<AppEnv>, deps: Deps) {
  // The keys are loaded (or generated into DATA_DIR) when the service is made (compose.ts), i.e. on start.
  const push = deps.push;
  route(app, deps, 'GET /push/public-key', (c) => c.json({ success: true, publicKey: push.vapid.publicKey } satisfies PushPublicKeyResponse));
  route(app, deps, 'PATCH /generic/update-firebase-token', async (c) =>
    c.json(await saveSubscription(deps, principalOf(c), await parseJson(c, pushSubscriptionSchema))),
  );
  route(app, deps, 'DELETE /generic/update-firebase-token', async (c) =>
    c.json(await removeSubscription(deps, principalOf(c), (await parseJson(c, pushUnsubscribeSchema)).endpoint)),
  );
}
