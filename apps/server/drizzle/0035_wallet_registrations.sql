CREATE TABLE "wallet_registration" (
	"device_library_id" text NOT NULL,
	"pass_type_id" text NOT NULL,
	"ticket_id" text NOT NULL,
	"push_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"pushed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallet_registration_device_library_id_pass_type_id_ticket_id_pk" PRIMARY KEY("device_library_id","pass_type_id","ticket_id")
);
--> statement-breakpoint
ALTER TABLE "wallet_registration" ADD CONSTRAINT "wallet_registration_ticket_id_ticket_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."ticket"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_registration_ticket_idx" ON "wallet_registration" USING btree ("ticket_id");