ALTER TABLE "guests" ADD COLUMN "calendar_feed_token" text;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "calendar_feed_token_hint" text;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "series_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "guests_calendar_feed_token_unique" ON "guests" USING btree ("calendar_feed_token");