-- Keeps person.permission_names equal to the person's rows in person_permission (sorted,
-- comma-joined), so that authorising a request is one primary-key read. Foreign-key cascades
-- (deleting a permission or a person) fire these triggers too.
CREATE TRIGGER person_permission_after_insert AFTER INSERT ON person_permission BEGIN
  UPDATE person SET permission_names = coalesce((
    SELECT group_concat(permission, ',') FROM (
      SELECT p.permission FROM person_permission pp JOIN permission p ON p.id = pp.permission_id
      WHERE pp.person_id = NEW.person_id ORDER BY p.permission)), '')
  WHERE id = NEW.person_id;
END;
--> statement-breakpoint
CREATE TRIGGER person_permission_after_delete AFTER DELETE ON person_permission BEGIN
  UPDATE person SET permission_names = coalesce((
    SELECT group_concat(permission, ',') FROM (
      SELECT p.permission FROM person_permission pp JOIN permission p ON p.id = pp.permission_id
      WHERE pp.person_id = OLD.person_id ORDER BY p.permission)), '')
  WHERE id = OLD.person_id;
END;
--> statement-breakpoint
CREATE TRIGGER permission_after_rename AFTER UPDATE OF permission ON permission BEGIN
  UPDATE person SET permission_names = coalesce((
    SELECT group_concat(permission, ',') FROM (
      SELECT p.permission FROM person_permission pp JOIN permission p ON p.id = pp.permission_id
      WHERE pp.person_id = person.id ORDER BY p.permission)), '')
  WHERE id IN (SELECT person_id FROM person_permission WHERE permission_id = NEW.id);
END;
