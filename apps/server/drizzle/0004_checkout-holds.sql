CREATE TABLE "payment_event" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_payment" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"client_secret" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"refunded" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_payment_order_id_unique" UNIQUE("order_id"),
	CONSTRAINT "sandbox_payment_client_secret_unique" UNIQUE("client_secret")
);
--> statement-breakpoint
ALTER TABLE "event" ADD COLUMN "hold_minutes" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
CREATE INDEX "order_pending_hold_idx" ON "order" USING btree ("hold_expires_at") WHERE "order"."status" = 'pending';