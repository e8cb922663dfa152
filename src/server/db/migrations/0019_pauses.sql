CREATE TABLE "pauses" (
	"id" serial PRIMARY KEY NOT NULL,
	"guest_id" integer NOT NULL,
	"from_time" bigint NOT NULL,
	"to_time" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pauses" ADD CONSTRAINT "pauses_guest_id_guests_id_fk" FOREIGN KEY ("guest_id") REFERENCES "public"."guests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pauses_guest_to" ON "pauses" USING btree ("guest_id","to_time");