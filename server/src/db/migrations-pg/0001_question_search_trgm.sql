-- Hand-written (issue 22): the question search on PostgreSQL. SQLite keeps a trigram FTS5 table
-- (question_fts, migration 0007) in step with question_search by triggers; PostgreSQL has no such
-- table: the search reads question_search.body directly, each word matched with ILIKE
-- '%word%' (db/dialect.ts trigramSearch), which this GIN index of pg_trgm's trigrams serves.
-- pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "question_search_body_trgm_idx" ON "question_search" USING gin ("body" gin_trgm_ops);
