DROP INDEX "check_in_one_accepted_idx";--> statement-breakpoint
ALTER TABLE "check_in" ADD COLUMN "undone_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event" ADD COLUMN "checkin_key" text DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '') NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "check_in_one_accepted_idx" ON "check_in" USING btree ("ticket_id") WHERE "check_in"."result" = 'accepted' and "check_in"."undone_at" is null;