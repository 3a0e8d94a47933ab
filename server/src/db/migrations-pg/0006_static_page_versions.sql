CREATE TABLE "static_page_version" (
	"key" text NOT NULL,
	"lang" text NOT NULL,
	"version" bigint NOT NULL,
	"html" text NOT NULL,
	"action" text NOT NULL,
	"restored_from" bigint,
	"actor_id" text,
	"actor_name" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "static_page_version_key_lang_version_pk" PRIMARY KEY("key","lang","version")
);
--> statement-breakpoint
ALTER TABLE "static_page_version" ADD CONSTRAINT "static_page_version_actor_id_person_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."person"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Hand-written: each language an earlier save wrote becomes that language's version 1 (docs/admin.md: Static pages).
INSERT INTO "static_page_version" ("key", "lang", "version", "html", "action", "actor_id", "created_at")
SELECT "key", 'en', 1, "content"::jsonb->>'en', 'SAVE', "updated_by", "updated_at" FROM "static_page" WHERE trim("content"::jsonb->>'en') <> '';
--> statement-breakpoint
INSERT INTO "static_page_version" ("key", "lang", "version", "html", "action", "actor_id", "created_at")
SELECT "key", 'hi', 1, "content"::jsonb->>'hi', 'SAVE', "updated_by", "updated_at" FROM "static_page" WHERE trim("content"::jsonb->>'hi') <> '';
