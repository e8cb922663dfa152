ALTER TABLE "guests" ADD COLUMN "facilitator_signed_in_at" bigint;--> statement-breakpoint
-- Sessions open before this migration were last seen, as far as is known, when they began.
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" bigint;--> statement-breakpoint
UPDATE "sessions" SET "last_seen_at" = "created_at";--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "last_seen_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "facilitator_tokens" ADD COLUMN "used_at" bigint;
