CREATE TABLE "sent_email" (
	"key" text PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
