-- Custom SQL migration (drizzle-kit generate --custom): live sockets learn at once, on every server
-- instance, that a session ended or a person's role in an organization changed (decision 0029).
-- NOTIFY is delivered only when the transaction commits, and once per distinct payload.
CREATE FUNCTION admit_notify_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('admit_access', 'session:' || OLD.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER session_ended_notify AFTER DELETE ON "session"
  FOR EACH ROW EXECUTE FUNCTION admit_notify_session_ended();
--> statement-breakpoint
CREATE FUNCTION admit_notify_membership_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('admit_access', 'user:' || OLD.user_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER member_removed_notify AFTER DELETE ON "member"
  FOR EACH ROW EXECUTE FUNCTION admit_notify_membership_changed();
--> statement-breakpoint
CREATE TRIGGER member_role_changed_notify AFTER UPDATE OF "role", "user_id" ON "member"
  FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION admit_notify_membership_changed();
