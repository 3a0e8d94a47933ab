import type { Hono } from 'hono';
import { contactSchema } from '../../../../sync-protocol/src/contact';
import type { AppEnv, Deps } from '../../context';
import { clientIp, parseJson } from '../../lib/http';
import { route } from '../../lib/route';
import * as generic from './generic.service';

export function genericRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'POST /generic/submit-contact-details', async (c) => {
    const body = await parseJson(c, contactSchema);
    await deps.rates.consume('lookupIp', clientIp(c, deps.config.TRUST_PROXY));
    return c.json(await generic.submitContact(deps, body), 201);
  });
  // PATCH /generic/update-firebase-token (the device's Web Push subscription) is modules/push's.
}
