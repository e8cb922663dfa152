CREATE TABLE "deleted_accounts" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"suspended_until" bigint,
	"early_finish_block_until" bigint,
	"trial_ended_at" bigint,
	"deleted_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" DROP CONSTRAINT "payments_guest_id_guests_id_fk";
--> statement-breakpoint
ALTER TABLE "payments" ALTER COLUMN "guest_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE set null ON UPDATE no action;