-- Hand-written (issue 22): SQLite migration 0002's triggers on PostgreSQL. They keep
-- person.permission_names equal to the person's rows in person_permission (the permission names
-- sorted, comma-joined; '' for none), so that authorising a request is one primary-key read.
-- Sorted by byte (COLLATE "C"), as SQLite's ORDER BY is, whatever the database's collation.
-- Foreign-key cascades (deleting a permission or a person) fire these triggers too.
-- Per statement, over its transition table: a person given a role's twenty permissions in one
-- INSERT is written once, not twenty times.
CREATE FUNCTION person_permission_names_of(ids text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE person SET permission_names = coalesce((
    SELECT string_agg(p.permission, ',' ORDER BY p.permission COLLATE "C")
    FROM person_permission pp JOIN permission p ON p.id = pp.permission_id
    WHERE pp.person_id = person.id), '')
  WHERE id = ANY (ids);
END;
$$;--> statement-breakpoint
CREATE FUNCTION person_permission_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM person_permission_names_of(ARRAY(SELECT DISTINCT person_id FROM new_rows));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE FUNCTION person_permission_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM person_permission_names_of(ARRAY(SELECT DISTINCT person_id FROM old_rows));
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- A renamed permission: everyone who holds it (PostgreSQL allows no transition table on a trigger
-- of named columns, so this one runs per row; renames are rare).
CREATE FUNCTION permission_after_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM person_permission_names_of(ARRAY(SELECT person_id FROM person_permission WHERE permission_id = NEW.id));
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER person_permission_after_insert AFTER INSERT ON person_permission
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION person_permission_after_insert();--> statement-breakpoint
CREATE TRIGGER person_permission_after_delete AFTER DELETE ON person_permission
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION person_permission_after_delete();--> statement-breakpoint
CREATE TRIGGER permission_after_rename AFTER UPDATE OF permission ON permission
  FOR EACH ROW EXECUTE FUNCTION permission_after_rename();
--> statement-breakpoint
-- People written before this migration.
SELECT person_permission_names_of(ARRAY(SELECT id FROM person));
