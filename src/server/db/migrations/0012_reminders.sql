CREATE TABLE "push_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"label" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reminders_sent" (
	"reservation_id" integer NOT NULL,
	"start_time" bigint NOT NULL,
	"target" text NOT NULL,
	"claimed_at" bigint NOT NULL,
	"outcome" text,
	CONSTRAINT "reminders_sent_reservation_id_start_time_target_pk" PRIMARY KEY("reservation_id","start_time","target")
);
--> statement-breakpoint
CREATE TABLE "server_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "reminder_lead_minutes" integer DEFAULT 15;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "remind_by_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "push_devices" ADD CONSTRAINT "push_devices_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminders_sent" ADD CONSTRAINT "reminders_sent_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "push_devices_endpoint" ON "push_devices" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_devices_guest" ON "push_devices" USING btree ("guest_id");--> statement-breakpoint
CREATE INDEX "reservations_unfinished_start" ON "reservations" USING btree ("start_time") WHERE "reservations"."finish_reason" is null;