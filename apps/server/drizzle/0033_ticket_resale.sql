CREATE TABLE "ticket_resale" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"ticket_type_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"order_id" text NOT NULL,
	"price" integer NOT NULL,
	"fee" integer NOT NULL,
	"status" text DEFAULT 'listed' NOT NULL,
	"sale_order_id" text,
	"new_ticket_id" text,
	"listed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ticket_type" ADD COLUMN "resale_listed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_line" ADD COLUMN "resale" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_settings" ADD COLUMN "resale_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transfer_settings" ADD COLUMN "resale_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_resale" ADD CONSTRAINT "ticket_resale_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_resale" ADD CONSTRAINT "ticket_resale_ticket_type_id_ticket_type_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_type"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_resale" ADD CONSTRAINT "ticket_resale_ticket_id_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."ticket"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_resale" ADD CONSTRAINT "ticket_resale_order_id_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_resale" ADD CONSTRAINT "ticket_resale_sale_order_id_order_id_fk" FOREIGN KEY ("sale_order_id") REFERENCES "public"."order"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_resale_open_idx" ON "ticket_resale" USING btree ("ticket_id") WHERE "ticket_resale"."status" in ('listed', 'held');--> statement-breakpoint
CREATE INDEX "ticket_resale_queue_idx" ON "ticket_resale" USING btree ("ticket_type_id","listed_at","id") WHERE "ticket_resale"."status" = 'listed';--> statement-breakpoint
CREATE INDEX "ticket_resale_sale_order_idx" ON "ticket_resale" USING btree ("sale_order_id") WHERE "ticket_resale"."sale_order_id" is not null;--> statement-breakpoint
CREATE INDEX "ticket_resale_event_idx" ON "ticket_resale" USING btree ("event_id","listed_at");--> statement-breakpoint
ALTER TABLE "ticket_type" ADD CONSTRAINT "ticket_type_resale_listed_check" CHECK ("ticket_type"."resale_listed" >= 0);