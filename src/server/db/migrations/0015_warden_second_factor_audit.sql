CREATE TABLE "warden_audit" (
	"id" serial PRIMARY KEY NOT NULL,
	"warden_id" integer NOT NULL,
	"action" text NOT NULL,
	"reservation_id" integer NOT NULL,
	"guest_id" integer NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "warden_sign_ins" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"warden_id" integer NOT NULL,
	"enrol_secret" text,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wardens" ADD COLUMN "second_factor_secret" text;--> statement-breakpoint
ALTER TABLE "wardens" ADD COLUMN "second_factor_last_step" bigint;--> statement-breakpoint
ALTER TABLE "wardens" ADD COLUMN "disabled_at" bigint;--> statement-breakpoint
ALTER TABLE "warden_sessions" ADD COLUMN "last_used_at" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "warden_audit" ADD CONSTRAINT "warden_audit_warden_id_wardens_id_fk" FOREIGN KEY ("warden_id") REFERENCES "public"."wardens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warden_sign_ins" ADD CONSTRAINT "warden_sign_ins_warden_id_wardens_id_fk" FOREIGN KEY ("warden_id") REFERENCES "public"."wardens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "warden_audit_at" ON "warden_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "warden_audit_warden" ON "warden_audit" USING btree ("warden_id");--> statement-breakpoint
CREATE INDEX "warden_sign_ins_warden" ON "warden_sign_ins" USING btree ("warden_id");