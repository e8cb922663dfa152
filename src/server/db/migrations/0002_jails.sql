CREATE TABLE "feature_images" (
	"id" serial PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"data" text NOT NULL,
	"source_log_id" integer,
	"warden_id" integer,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jail_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"reservation_id" integer NOT NULL,
	"kind" text NOT NULL,
	"time" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jails" (
	"reservation_id" integer PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"warden_id" integer,
	"start_time" bigint NOT NULL,
	"end_time" bigint NOT NULL,
	"state" text NOT NULL,
	"started_at" bigint NOT NULL,
	"entered_at" bigint,
	"jail_status" text DEFAULT 'injail' NOT NULL,
	"status_since" bigint NOT NULL,
	"overrun_alerted" boolean DEFAULT false NOT NULL,
	"commands" integer[] DEFAULT ARRAY[1,2,3,4]::integer[] NOT NULL,
	"last_alive_at" bigint,
	"finished_at" bigint,
	"finish" text,
	"logs_settle_at" bigint,
	"patrols_purged_at" bigint
);
--> statement-breakpoint
CREATE TABLE "warden_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"warden_id" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_logs" ADD COLUMN "event_id" text;--> statement-breakpoint
ALTER TABLE "feature_images" ADD CONSTRAINT "feature_images_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feature_images" ADD CONSTRAINT "feature_images_warden_id_wardens_id_fk" FOREIGN KEY ("warden_id") REFERENCES "public"."wardens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jail_alerts" ADD CONSTRAINT "jail_alerts_reservation_id_jails_reservation_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."jails"("reservation_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jails" ADD CONSTRAINT "jails_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jails" ADD CONSTRAINT "jails_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jails" ADD CONSTRAINT "jails_warden_id_wardens_id_fk" FOREIGN KEY ("warden_id") REFERENCES "public"."wardens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warden_sessions" ADD CONSTRAINT "warden_sessions_warden_id_wardens_id_fk" FOREIGN KEY ("warden_id") REFERENCES "public"."wardens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feature_images_guest" ON "feature_images" USING btree ("guest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "feature_images_guest_source" ON "feature_images" USING btree ("guest_id","source_log_id");--> statement-breakpoint
CREATE INDEX "jail_alerts_reservation_time" ON "jail_alerts" USING btree ("reservation_id","time");--> statement-breakpoint
CREATE INDEX "jails_state_end" ON "jails" USING btree ("state","end_time");--> statement-breakpoint
CREATE INDEX "jails_guest_finished" ON "jails" USING btree ("guest_id","finished_at");--> statement-breakpoint
CREATE INDEX "warden_sessions_warden" ON "warden_sessions" USING btree ("warden_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_logs_reservation_event" ON "activity_logs" USING btree ("reservation_id","event_id");