ALTER TABLE "jails" ADD COLUMN "is_trial" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Jails started before the column: a try-anyway jail is one whose reservation is.
UPDATE "jails" SET "is_trial" = true FROM "reservations" WHERE "reservations"."id" = "jails"."reservation_id" AND "reservations"."is_trial";
