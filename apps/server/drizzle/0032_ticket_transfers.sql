CREATE TABLE "ticket_transfer" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"order_id" text NOT NULL,
	"from_name" text NOT NULL,
	"from_email" text NOT NULL,
	"from_user_id" text,
	"to_email" text NOT NULL,
	"to_name" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"locale" text,
	"new_ticket_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "transfer_settings" (
	"event_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"closes_hours_before_start" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket" ADD COLUMN "transferred_from" text;--> statement-breakpoint
ALTER TABLE "ticket" ADD COLUMN "replaced_by" text;--> statement-breakpoint
ALTER TABLE "ticket" ADD COLUMN "holder_user_id" text;--> statement-breakpoint
ALTER TABLE "ticket_transfer" ADD CONSTRAINT "ticket_transfer_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfer" ADD CONSTRAINT "ticket_transfer_ticket_id_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."ticket"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfer" ADD CONSTRAINT "ticket_transfer_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfer" ADD CONSTRAINT "ticket_transfer_from_user_id_user_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_settings" ADD CONSTRAINT "transfer_settings_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_transfer_pending_idx" ON "ticket_transfer" USING btree ("ticket_id") WHERE "ticket_transfer"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "ticket_transfer_event_idx" ON "ticket_transfer" USING btree ("event_id","created_at");--> statement-breakpoint
ALTER TABLE "ticket" ADD CONSTRAINT "ticket_holder_user_id_user_id_fk" FOREIGN KEY ("holder_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ticket_holder_user_idx" ON "ticket" USING btree ("holder_user_id") WHERE "ticket"."holder_user_id" is not null;