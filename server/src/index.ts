import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from './app';
import { type Database_, openDatabase, openPostgres } from './db/client';
import { findDemoLogins, seedDatabase } from './db/seed';
import { EnvError, loadConfig, parseEnv } from './env';
import { serveClientFiles } from './lib/client-files';
import { createLogger } from './lib/logger';
import { createLocalOutbox, createSmtpOutbox, localInboxFile } from './lib/outbox';
import { connectEventBus } from './lib/events';
import { runExclusive } from './lib/exclusive';
import { instanceName } from './lib/instance';
import { createRateLimits } from './lib/rate-limit';
import { activePlans } from './modules/plans/plans.routes';
import { campaignShareCard } from './modules/campaigns/share-card';
import { composeDeps, startJobs } from './compose';
import { serveApp } from './serve';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  // Before anything is created: the database, its -wal and -shm, jwt-secret and every other file
  // the server makes are its user's alone (600, directories 700; docs/security.md "Production, load shedding, logs, files").
  process.umask(0o077);
  const config = loadConfig(parseEnv());
  const log = createLogger(config.LOG_LEVEL);
  const production = config.NODE_ENV === 'production';
  // Read or write access for others; execute alone (npm run start:cluster gives PostgreSQL's group
  // the right to pass through to DATA_DIR/postgres when run as root) lists and changes nothing.
  if ((statSync(config.dataDir).mode & 0o066) !== 0) {
    log.warn({ dataDir: config.dataDir }, 'DATA_DIR can be listed by other users (its files are 600); chmod 700 it unless it is shared on purpose');
  }
  // PostgreSQL when DATABASE_URL is set (docs/cluster.md: several instances may share it), else SQLite in DATA_DIR.
  const database: Database_ = config.DATABASE_URL
    ? await openPostgres(config.DATABASE_URL, { onError: (err) => log.warn({ err }, 'PostgreSQL closed an idle connection; the pool opens another') })
    : openDatabase(config.dataDir, { backgroundCheckpoints: { onError: (message) => log.error({ message }, 'background checkpoint failed') } });
  // Instances starting together on one PostgreSQL seed it once: the others wait, then find it seeded.
  const { seeded } = (await runExclusive(database.db, 'seed', () => seedDatabase(database.db, { demo: !production }), { wait: true }))!;
  log.info(
    { dataDir: config.dataDir, database: database.engine === 'postgres' ? database.file : 'sqlite', instance: instanceName(config), seeded, mode: production ? 'production' : 'demo' },
    seeded ? (production ? 'database seeded with reference data (no accounts)' : 'database seeded from fixtures') : 'database ready',
  );
  if (production) {
    // A real installation never runs with a password anyone can read in the README (docs/security.md "Production that cannot be fooled").
    const demo = await findDemoLogins(database.db);
    if (demo.length > 0) {
      log.fatal(
        { accounts: demo.map((d) => ({ id: d.id, mobile: d.mobile })) },
        'refusing to start with NODE_ENV=production: these accounts still have a published demo password. ' +
          'Start on a new DATA_DIR (then npm run create-admin), or change their passwords or delete them first',
      );
      await database.close();
      process.exit(1);
    }
  } else {
    log.info('demo start: the demo accounts of fixtures/ sign in with their published passwords; set NODE_ENV=production for a real installation');
  }

  const inbox = { inboxFile: localInboxFile(config) };
  const outbox = config.SMTP_URL
    ? await createSmtpOutbox(database.db, log, config.SMTP_URL, config.MAIL_FROM, inbox)
    : await createLocalOutbox(database.db, log, inbox);
  // On PostgreSQL a change accepted here reaches the devices connected to every instance (LISTEN/NOTIFY).
  const events = connectEventBus(database.db, { log });
  // Not forever: it keeps trying in the background, and this instance's own changes reach its devices anyway.
  const heard = await Promise.race([events.ready.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 10_000).unref())]);
  if (!heard) log.warn("change notifications: not listening yet; devices connected here learn of other instances' changes once it does");
  // Services, hooks and jobs are wired in one place (compose.ts).
  const deps = composeDeps({ db: database.db, config, outbox, rates: createRateLimits(database.db), log, events });
  const app = createApp(deps);
  const stopJobs = await startJobs(deps, { publishEveryMs: config.PUBLISH_INTERVAL_S * 1000, scoreDistEveryMs: config.SCORE_DIST_INTERVAL_S * 1000 });

  // The built client: files as they are, and index.html for the app's routes (lib/client-files).
  const clientDir = path.resolve(config.CLIENT_DIR ?? path.join(root, 'dist'));
  // `/plan` is drawn on the server with the database's plans (lib/rendered-pages).
  // A shared campaign page carries its card for messaging apps (docs/charity.md "Sharing").
  if (!serveClientFiles(app, clientDir, { load: { '/plan': async () => ({ plans: await activePlans(deps.db) }) }, log, shareCard: campaignShareCard(deps.db, config) })) {
    log.warn({ clientDir }, 'no built client found; serving the API only (run npm run build)');
  }

  const server = serveApp(app.fetch, { hostname: config.HOST, port: config.PORT }, (info) => {
    log.info({ url: `http://${config.HOST}:${info.port}`, instance: instanceName(config) }, 'listening');
    // The start-up lines at once, not with the first 4 KiB of request lines.
    log.flush();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    stopJobs();
    const closeAll = async () => {
      await events.close();
      await database.close();
    };
    server.close(() => {
      void closeAll().finally(() => {
        log.info('closed');
        process.exit(0);
      });
    });
    // Open keep-alive / SSE connections must not hold the process forever.
    setTimeout(() => {
      void closeAll().finally(() => process.exit(0));
    }, 5000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof EnvError) {
    // A refused environment is a `fatal` line like the other refusals to start, whatever
    // LOG_LEVEL says (it may be among the refused values): docs/security.md.
    const log = createLogger('info');
    log.fatal({ problems: err.problems }, `refusing to start: ${err.message}`);
    log.flush();
  } else {
    console.error(err instanceof Error ? err.message : err);
  }
  process.exit(1);
});
