import type { Context, Hono } from 'hono';
import { ACCESS, type RouteKey } from '../access';
import type { AppEnv, Deps, Principal } from '../context';
import { authorize } from '../middleware/auth';
import { unauthenticated } from './errors';

type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

/** Registers a route with the access rule the table gives it. */
export function route(app: Hono<AppEnv>, deps: Deps, key: RouteKey, handler: Handler): void {
  const access = ACCESS[key];
  const space = key.indexOf(' ');
  const method = key.slice(0, space).toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
  const path = key.slice(space + 1);
  // One handler rather than a middleware plus a handler: a step less in Hono's compose chain.
  app.on(method.toUpperCase(), path, async (c) => {
    await authorize(deps, access, c);
    return handler(c);
  });
}

/** The signed-in person; only for routes whose access needs a login. */
export function principalOf(c: Context<AppEnv>): Principal {
  const p = c.get('principal');
  if (!p) throw unauthenticated();
  return p;
}
