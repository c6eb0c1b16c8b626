CREATE TABLE "analytics_daily" (
	"event_id" text NOT NULL,
	"day" date NOT NULL,
	"step" text NOT NULL,
	"source" text NOT NULL,
	"campaign" text NOT NULL,
	"hits" integer NOT NULL,
	"visitors" integer NOT NULL,
	CONSTRAINT "analytics_daily_event_id_day_step_source_campaign_pk" PRIMARY KEY("event_id","day","step","source","campaign")
);
--> statement-breakpoint
CREATE TABLE "analytics_event" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analytics_event_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" text NOT NULL,
	"step" text NOT NULL,
	"visitor" text NOT NULL,
	"referrer_host" text DEFAULT '' NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_progress" (
	"id" integer PRIMARY KEY NOT NULL,
	"counted_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_salt" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "analytics_daily" ADD CONSTRAINT "analytics_daily_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analytics_event" ADD CONSTRAINT "analytics_event_event_id_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."event"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "analytics_event_event_idx" ON "analytics_event" USING btree ("event_id","at");--> statement-breakpoint
CREATE INDEX "analytics_event_at_idx" ON "analytics_event" USING btree ("at");--> statement-breakpoint
INSERT INTO "analytics_progress" ("id", "counted_until") VALUES (1, now());
