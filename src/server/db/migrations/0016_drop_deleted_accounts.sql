ALTER TABLE "deleted_accounts" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "deleted_accounts" CASCADE;--> statement-breakpoint
DROP INDEX "verified_contacts_contact_hash";