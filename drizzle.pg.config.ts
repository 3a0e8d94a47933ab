import { defineConfig } from 'drizzle-kit';

/**
 * PostgreSQL migrations (issue 22), generated from the tables that server/src/db/schema-pg.ts
 * derives from schema.ts: `npx drizzle-kit generate --config drizzle.pg.config.ts`.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/src/db/schema-pg.drizzle-kit.ts',
  out: './server/src/db/migrations-pg',
});
