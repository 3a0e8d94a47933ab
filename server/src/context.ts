import type { Config } from './env';
import type { DB } from './db/client';
import type { EventBus } from './lib/events';
import type { Logger } from './lib/logger';
import type { Outbox } from './lib/outbox';
import type { RateLimits } from './lib/rate-limit';

/** What services need, passed as plain arguments (never a Hono Context, CONVENTIONS rule 4). */
export type Deps = {
  db: DB;
  config: Config;
  outbox: Outbox;
  rates: RateLimits;
  log: Logger;
  events: EventBus;
};

/** The signed-in person of a request. */
export type Principal = {
  id: string;
  name: string;
  permissions: Set<string>;
  /** The session the request's token belongs to (issue 16 §4: logout ends it). */
  sessionId: string;
};

export type AppEnv = {
  Variables: {
    principal: Principal | null;
    requestId: string;
  };
};
