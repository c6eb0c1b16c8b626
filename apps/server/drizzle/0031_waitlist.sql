CREATE TABLE "waitlist_entry" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"person_id" text,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"locale" text,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"offered_at" timestamp with time zone,
	"offer_order_id" text,
	"offered_quantity" integer,
	"offered_by" text,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "waitlist_settings" (
	"event_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"ticket_type_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"offer_hours" integer DEFAULT 24 NOT NULL,
	"partial_offers" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ticket_type" ADD COLUMN "waitlist_waiting" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_ticket_type_id_ticket_type_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_type"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_person_id_user_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_offer_order_id_order_id_fk" FOREIGN KEY ("offer_order_id") REFERENCES "public"."order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entry" ADD CONSTRAINT "waitlist_entry_offered_by_user_id_fk" FOREIGN KEY ("offered_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_settings" ADD CONSTRAINT "waitlist_settings_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waitlist_entry_queue_idx" ON "waitlist_entry" USING btree ("ticket_type_id","joined_at","id") WHERE "waitlist_entry"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "waitlist_entry_event_idx" ON "waitlist_entry" USING btree ("event_id","joined_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entry_person_idx" ON "waitlist_entry" USING btree ("ticket_type_id",lower("email")) WHERE "waitlist_entry"."status" = 'waiting';--> statement-breakpoint
ALTER TABLE "ticket_type" ADD CONSTRAINT "ticket_type_waitlist_waiting_check" CHECK ("ticket_type"."waitlist_waiting" >= 0);