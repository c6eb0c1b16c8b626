ALTER TABLE "event" ADD COLUMN "content_locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "event" ADD COLUMN "translations" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_type" ADD COLUMN "name_translations" jsonb DEFAULT '{}'::jsonb NOT NULL;