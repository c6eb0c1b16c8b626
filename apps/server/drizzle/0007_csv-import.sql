CREATE TABLE "check_in" (
	"id" text PRIMARY KEY NOT NULL,
	"event_id" text NOT NULL,
	"ticket_id" text,
	"device" text NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"result" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "check_in_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "import_row" (
	"event_id" text NOT NULL,
	"row_key" text NOT NULL,
	"order_id" text NOT NULL,
	"note" text,
	"imported_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_row_event_id_row_key_pk" PRIMARY KEY("event_id","row_key")
);
--> statement-breakpoint
ALTER TABLE "check_in" ADD CONSTRAINT "check_in_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in" ADD CONSTRAINT "check_in_ticket_id_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."ticket"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_row" ADD CONSTRAINT "import_row_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_in_event_idx" ON "check_in" USING btree ("event_id","scanned_at");--> statement-breakpoint
CREATE UNIQUE INDEX "check_in_one_accepted_idx" ON "check_in" USING btree ("ticket_id") WHERE "check_in"."result" = 'accepted';--> statement-breakpoint
CREATE INDEX "import_row_order_idx" ON "import_row" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_event_created_idx" ON "order" USING btree ("event_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ticket_event_created_idx" ON "ticket" USING btree ("event_id","created_at","id");