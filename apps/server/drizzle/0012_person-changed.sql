-- Custom SQL migration (drizzle-kit generate --custom): the server keeps the sessions it has looked
-- up for a short while (platform/auth/session-cache.ts); a person whose name, address or
-- verification changes is announced on every instance, so that no instance keeps the old ones.
CREATE FUNCTION admit_notify_person_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('admit_access', 'profile:' || NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER person_changed_notify AFTER UPDATE OF "name", "email", "email_verified" ON "user"
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.email IS DISTINCT FROM NEW.email OR OLD.email_verified IS DISTINCT FROM NEW.email_verified)
  EXECUTE FUNCTION admit_notify_person_changed();
