ALTER TABLE "jails" ADD COLUMN "focused_ms" bigint;--> statement-breakpoint
CREATE INDEX "jails_guest_start" ON "jails" USING btree ("guest_id","start_time");