import type { Hono } from 'hono';
import { contactSchema, pushTokenSchema } from '../../../../sync-protocol/src/contact';
import type { AppEnv, Deps } from '../../context';
import { clientIp, parseJson } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as generic from './generic.service';

export function genericRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'POST /generic/submit-contact-details', async (c) => {
    const body = await parseJson(c, contactSchema);
    await deps.rates.consume('lookupIp', clientIp(c, deps.config.TRUST_PROXY));
    return c.json(generic.submitContact(deps, body), 201);
  });
  route(app, deps, 'PATCH /generic/update-firebase-token', async (c) =>
    c.json(generic.savePushToken(deps, principalOf(c), (await parseJson(c, pushTokenSchema)).token)),
  );
}
