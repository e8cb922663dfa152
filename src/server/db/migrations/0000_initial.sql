CREATE TABLE "email_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "guests" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"language" text NOT NULL,
	"timezone" integer NOT NULL,
	"phone" text,
	"subscription_plan" integer DEFAULT 1 NOT NULL,
	"subscription_created_at" bigint,
	"subscription_expired_at" bigint,
	"is_sleeper" boolean DEFAULT false NOT NULL,
	"is_lim_member" boolean DEFAULT false NOT NULL,
	"jail_status" text,
	"jail_status_updated" bigint,
	"total_duration_this_month" double precision DEFAULT 0 NOT NULL,
	"suspended_until" bigint,
	"early_finish_block_until" bigint,
	"webhook_enabled" boolean DEFAULT false NOT NULL,
	"trigger_enabled" boolean DEFAULT false NOT NULL,
	"webhook_token" text NOT NULL,
	"trigger_method" text DEFAULT 'POST' NOT NULL,
	"trigger_url" text,
	"trigger_body" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lazy_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"reservation_id" integer,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "phone_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"phone" text NOT NULL,
	"code_hash" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"warden_id" integer,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "error_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"guest_id" integer,
	"text" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_buckets" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" bigint NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "facilitator_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"warden_id" integer NOT NULL,
	"guest_id" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wardens" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"phone" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lazy_alerts" ADD CONSTRAINT "lazy_alerts_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_codes" ADD CONSTRAINT "phone_codes_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "error_logs" ADD CONSTRAINT "error_logs_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilitator_tokens" ADD CONSTRAINT "facilitator_tokens_warden_id_wardens_id_fk" FOREIGN KEY ("warden_id") REFERENCES "public"."wardens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilitator_tokens" ADD CONSTRAINT "facilitator_tokens_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_tokens_guest_id" ON "email_tokens" USING btree ("guest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "guests_email_unique" ON "guests" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "guests_title_unique" ON "guests" USING btree (lower("title"));--> statement-breakpoint
CREATE UNIQUE INDEX "guests_webhook_token_unique" ON "guests" USING btree ("webhook_token");--> statement-breakpoint
CREATE INDEX "lazy_alerts_guest_id" ON "lazy_alerts" USING btree ("guest_id");--> statement-breakpoint
CREATE INDEX "phone_codes_guest_phone" ON "phone_codes" USING btree ("guest_id","phone");--> statement-breakpoint
CREATE INDEX "sessions_guest_id" ON "sessions" USING btree ("guest_id");--> statement-breakpoint
CREATE INDEX "facilitator_tokens_guest_id" ON "facilitator_tokens" USING btree ("guest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wardens_email_unique" ON "wardens" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "wardens_title_unique" ON "wardens" USING btree ("title");