ALTER TABLE "jails" ADD COLUMN "away_ms" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "guests" DROP COLUMN "jail_status";--> statement-breakpoint
ALTER TABLE "guests" DROP COLUMN "jail_status_updated";