CREATE TABLE "deleted_account_contacts" (
	"contact_hash" text PRIMARY KEY NOT NULL,
	"suspended_until" bigint,
	"early_finish_block_until" bigint,
	"trial_ended_at" bigint,
	"deleted_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verified_contacts" (
	"guest_id" integer NOT NULL,
	"contact_hash" text NOT NULL,
	"verified_at" bigint NOT NULL,
	CONSTRAINT "verified_contacts_guest_id_contact_hash_pk" PRIMARY KEY("guest_id","contact_hash")
);
--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "verified_contacts" ADD CONSTRAINT "verified_contacts_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verified_contacts_contact_hash" ON "verified_contacts" USING btree ("contact_hash");--> statement-breakpoint
-- What earlier deletions kept under the address: the same rows, the address now one contact among others.
INSERT INTO "deleted_account_contacts" ("contact_hash", "suspended_until", "early_finish_block_until", "trial_ended_at", "deleted_at") SELECT "email_hash", "suspended_until", "early_finish_block_until", "trial_ended_at", "deleted_at" FROM "deleted_accounts";
