CREATE TABLE "forum_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"guest_id" integer,
	"username" text NOT NULL,
	"text" text NOT NULL,
	"created_at" bigint NOT NULL,
	"external_id" text
);
--> statement-breakpoint
CREATE TABLE "local_cards" (
	"token" text PRIMARY KEY NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"outcome" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_payment_id" text NOT NULL,
	"plan" integer NOT NULL,
	"amount_yen" integer NOT NULL,
	"status" text NOT NULL,
	"failure" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trigger_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"reservation_id" integer,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"body" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" bigint,
	"last_status_code" integer,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"delivered_at" bigint
);
--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "webhook_token_hint" text;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "trigger_secret" text;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "payment_customer_id" text;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "payment_day" integer;--> statement-breakpoint
ALTER TABLE "guests" ADD COLUMN "next_payment_at" bigint;--> statement-breakpoint
ALTER TABLE "forum_messages" ADD CONSTRAINT "forum_messages_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trigger_deliveries" ADD CONSTRAINT "trigger_deliveries_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trigger_deliveries" ADD CONSTRAINT "trigger_deliveries_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forum_messages_created_at" ON "forum_messages" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "forum_messages_external_id" ON "forum_messages" USING btree ("external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_provider_id" ON "payments" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE INDEX "payments_guest_id" ON "payments" USING btree ("guest_id");--> statement-breakpoint
CREATE INDEX "trigger_deliveries_due" ON "trigger_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "trigger_deliveries_guest" ON "trigger_deliveries" USING btree ("guest_id","created_at");--> statement-breakpoint
-- Webhook tokens were kept as they are: keep their SHA-256 (hex, as hashToken) and the last four characters.
UPDATE "guests" SET "webhook_token_hint" = right("webhook_token", 4), "webhook_token" = encode(sha256(convert_to("webhook_token", 'UTF8')), 'hex');
