import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './server/src/db/schema-sqlite.ts',
  out: './server/src/db/migrations',
});
