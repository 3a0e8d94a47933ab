import type { Hono } from 'hono';
import { idSchema } from '@pm/protocol/common';
import { contactMessageQuerySchema, contactSchema } from '@pm/protocol/contact';
import type { AppEnv, Deps } from '../../context';
import { clientIp, parseJson, parseQuery, parseWith } from '../../lib/http';
import { principalOf, route } from '../../lib/route';
import * as contact from './contact.service';

/** The contact form of the site, and its messages in the back office. */
export function contactRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'POST /generic/submit-contact-details', async (c) => {
    const body = await parseJson(c, contactSchema);
    await deps.rates.consume('lookupIp', clientIp(c, deps.config.TRUST_PROXY));
    return c.json(await contact.submitContact(deps, body), 201);
  });
  route(app, deps, 'GET /generic/contact-messages', async (c) => c.json(await contact.listMessages(deps, parseQuery(c, contactMessageQuerySchema))));
  route(app, deps, 'DELETE /generic/contact-messages/:id', async (c) =>
    c.json(await contact.deleteMessage(deps, principalOf(c), parseWith(idSchema, c.req.param('id')))),
  );
  // PATCH /generic/update-firebase-token (the device's Web Push subscription) is modules/push's.
}
