CREATE TABLE "event_change" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"sequence" integer NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event" ADD COLUMN "calendar_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attendee_message" ADD COLUMN "change_id" text;--> statement-breakpoint
ALTER TABLE "event_change" ADD CONSTRAINT "event_change_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_change" ADD CONSTRAINT "event_change_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_change_event_idx" ON "event_change" USING btree ("event_id","created_at");--> statement-breakpoint
ALTER TABLE "attendee_message" ADD CONSTRAINT "attendee_message_change_id_event_change_id_fk" FOREIGN KEY ("change_id") REFERENCES "public"."event_change"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "attendee_message_change_idx" ON "attendee_message" USING btree ("change_id");