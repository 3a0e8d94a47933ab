import type { Hono } from 'hono';
import type { AppEnv, Deps } from '../../context';
import { principalOf, route } from '../../lib/route';
import { smsAnswerKey } from './sms-answers.service';

/**
 * Answers by SMS (docs/sms.md "The key"): the signed-in device fetches its session's SMS key while
 * online. The codes themselves arrive through the SMS adapter's provider callback (deps.smsInbound).
 */
export function smsAnswerRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /sms-answers/key', (c) => {
    // The key is a secret of this session: never kept by a cache on the way.
    c.header('cache-control', 'no-store');
    return c.json(smsAnswerKey(deps, principalOf(c)));
  });
}
