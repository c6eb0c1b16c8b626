CREATE TABLE "attendee_message" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"audience" jsonb NOT NULL,
	"created_by" text,
	"idempotency_key" text NOT NULL,
	"recipients" integer NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"unreachable" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "attendee_message_recipient" (
	"message_id" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"locale" text NOT NULL,
	"order_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"batch" integer NOT NULL,
	"status" text,
	"sent_at" timestamp with time zone,
	CONSTRAINT "attendee_message_recipient_message_id_email_pk" PRIMARY KEY("message_id","email")
);
--> statement-breakpoint
ALTER TABLE "attendee_message" ADD CONSTRAINT "attendee_message_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendee_message" ADD CONSTRAINT "attendee_message_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendee_message_recipient" ADD CONSTRAINT "attendee_message_recipient_message_id_attendee_message_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."attendee_message"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendee_message_event_idx" ON "attendee_message" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "attendee_message_idempotency_idx" ON "attendee_message" USING btree ("event_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "attendee_message_recipient_batch_idx" ON "attendee_message_recipient" USING btree ("message_id","batch");--> statement-breakpoint
CREATE INDEX "attendee_message_recipient_orders_idx" ON "attendee_message_recipient" USING gin ("order_ids");