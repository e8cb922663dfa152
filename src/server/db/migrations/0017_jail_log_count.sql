ALTER TABLE "jails" ADD COLUMN "log_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The logs each jail already has count towards its cap.
UPDATE "jails" SET "log_count" = (SELECT count(*) FROM "activity_logs" WHERE "activity_logs"."reservation_id" = "jails"."reservation_id");
