import type { Hono } from 'hono';
import type { AppEnv, Deps } from '../../context';
import { route } from '../../lib/route';

export function healthRoutes(app: Hono<AppEnv>, deps: Deps) {
  route(app, deps, 'GET /health', (c) => c.json({ success: true }));
}
