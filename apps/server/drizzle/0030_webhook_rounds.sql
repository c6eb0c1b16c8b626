ALTER TABLE "webhook_endpoint" ADD COLUMN "drain_job" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoint" ADD COLUMN "drain_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_delivery_pending_order_idx" ON "webhook_delivery" USING btree ("endpoint_id","seq") WHERE "webhook_delivery"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "webhook_delivery" DROP COLUMN "lease_job";--> statement-breakpoint
ALTER TABLE "webhook_delivery" DROP COLUMN "lease_until";