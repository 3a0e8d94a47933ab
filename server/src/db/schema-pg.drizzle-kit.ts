/*
 * What drizzle-kit reads for the PostgreSQL migrations (drizzle.pg.config.ts): it looks for tables
 * among a module's exports, and the PostgreSQL tables are derived at run time (schema-pg.ts), so
 * this module's exports are those tables. drizzle-kit loads it as CommonJS.
 */
import { pgTables } from './schema-pg';

module.exports = pgTables;
