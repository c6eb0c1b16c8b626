CREATE TABLE "event_code" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"code" text NOT NULL,
	"ticket_type_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"discount_percent" integer,
	"discount_amount" integer,
	"min_quantity" integer DEFAULT 1 NOT NULL,
	"max_uses" integer,
	"max_per_buyer" integer,
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_line" ADD COLUMN "discount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_line" ADD COLUMN "code_id" text;--> statement-breakpoint
ALTER TABLE "event_code" ADD CONSTRAINT "event_code_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_code" ADD CONSTRAINT "event_code_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_code_code_idx" ON "event_code" USING btree ("event_id","code");--> statement-breakpoint
ALTER TABLE "order_line" ADD CONSTRAINT "order_line_code_id_event_code_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."event_code"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_line_code_idx" ON "order_line" USING btree ("code_id") WHERE "order_line"."code_id" is not null;