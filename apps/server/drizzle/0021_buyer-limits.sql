ALTER TABLE "event" ADD COLUMN "max_per_buyer" integer;--> statement-breakpoint
ALTER TABLE "ticket_type" ADD COLUMN "max_per_buyer" integer;