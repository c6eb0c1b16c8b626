CREATE TABLE "api_idempotency" (
	"api_key_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer,
	"body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_key" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_key_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
ALTER TABLE "check_in" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "event_code" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "event" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_type" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "order" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "event_question" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "api_idempotency" ADD CONSTRAINT "api_idempotency_api_key_id_api_key_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_key"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_idempotency_key_idx" ON "api_idempotency" USING btree ("api_key_id","key");--> statement-breakpoint
CREATE INDEX "api_idempotency_created_idx" ON "api_idempotency" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "api_key_organization_idx" ON "api_key" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "check_in_event_updated_idx" ON "check_in" USING btree ("event_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "order_event_updated_idx" ON "order" USING btree ("event_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "ticket_event_updated_idx" ON "ticket" USING btree ("event_id","updated_at","id");--> statement-breakpoint
-- Rows kept before this migration changed when they were made, as far as anyone knows.
UPDATE "check_in" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "event_code" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "event" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "order" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "event_question" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "ticket" SET "updated_at" = "created_at";--> statement-breakpoint
-- Every change of a row the REST API syncs moves its updated_at, whichever statement made it (decision 0062).
CREATE FUNCTION admit_touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER check_in_touch_updated_at BEFORE UPDATE ON "check_in"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION admit_touch_updated_at();--> statement-breakpoint
CREATE TRIGGER event_code_touch_updated_at BEFORE UPDATE ON "event_code"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION admit_touch_updated_at();--> statement-breakpoint
CREATE TRIGGER event_touch_updated_at BEFORE UPDATE ON "event"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION admit_touch_updated_at();--> statement-breakpoint
CREATE TRIGGER ticket_type_touch_updated_at BEFORE UPDATE ON "ticket_type"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION admit_touch_updated_at();--> statement-breakpoint
CREATE TRIGGER order_touch_updated_at BEFORE UPDATE ON "order"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION admit_touch_updated_at();--> statement-breakpoint
CREATE TRIGGER event_question_touch_updated_at BEFORE UPDATE ON "event_question"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION admit_touch_updated_at();--> statement-breakpoint
CREATE TRIGGER ticket_touch_updated_at BEFORE UPDATE ON "ticket"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION admit_touch_updated_at();
