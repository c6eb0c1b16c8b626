ALTER TABLE "webhook_endpoint" ADD COLUMN "drain_job" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoint" ADD COLUMN "drain_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoint" ADD COLUMN "cursor_txid" bigint DEFAULT pg_current_xact_id()::text::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoint" ADD COLUMN "cursor_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_message" ADD COLUMN "txid" bigint DEFAULT pg_current_xact_id()::text::bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_message" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_delivery_pending_order_idx" ON "webhook_delivery" USING btree ("endpoint_id","seq") WHERE "webhook_delivery"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_message_outbox_idx" ON "webhook_message" USING btree ("organization_id","txid","seq");--> statement-breakpoint
ALTER TABLE "webhook_delivery" DROP COLUMN "lease_job";--> statement-breakpoint
ALTER TABLE "webhook_delivery" DROP COLUMN "lease_until";--> statement-breakpoint
-- Endpoints already made have had every message so far written as a delivery: they read on after them.
UPDATE "webhook_endpoint" SET "cursor_seq" = (SELECT coalesce(max("seq"), 0) FROM "webhook_message");