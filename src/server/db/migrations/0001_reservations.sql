CREATE TABLE "activity_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"reservation_id" integer NOT NULL,
	"time" bigint NOT NULL,
	"entry" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" serial PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"work" text NOT NULL,
	"start_time" bigint NOT NULL,
	"end_time" bigint NOT NULL,
	"duration_minutes" integer NOT NULL,
	"repeat_type" text NOT NULL,
	"daily_repeat_settings" integer[] NOT NULL,
	"schedules" jsonb NOT NULL,
	"time_zone" text NOT NULL,
	"wall_clock_minutes" integer NOT NULL,
	"finish_reason" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_logs_reservation_time" ON "activity_logs" USING btree ("reservation_id","time");--> statement-breakpoint
CREATE INDEX "reservations_guest_start" ON "reservations" USING btree ("guest_id","start_time");