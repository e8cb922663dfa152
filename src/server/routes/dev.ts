import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activityLogSchema } from '../../shared/api/reservation.ts';
import { PLAN_NAMES, PLANS } from '../../shared/plans.ts';
import { isUsageError, runAdmin } from '../admin.ts';
import { jpegDataUrlSize } from '../jail/jpeg.ts';
import { activityLogs, featureImages, guests, lazyAlerts, reservations, wardens } from '../db/schema/index.ts';

/** Up to ten years either way. */
const MAX_OFFSET_MS = 10 * 366 * 24 * 60 * 60 * 1000;

const clockRequestSchema = z.object({ offsetMs: z.number().int().min(-MAX_OFFSET_MS).max(MAX_OFFSET_MS) });
const clockResponseSchema = z.object({ offsetMs: z.number(), now: z.number() });

const outboxResponseSchema = z.object({
  messages: z.array(
    z.object({
      channel: z.enum(['email', 'sms']),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      createdAt: z.number(),
    }),
  ),
});

const adminRequestSchema = z.object({ args: z.array(z.string().max(200)).max(20) });
const adminResponseSchema = z.object({ lines: z.array(z.string()) });
const failureSchema = z.object({ error: z.string() });

const epochMsSchema = z.number().int().min(0).max(8.64e15);
const guestStateRequestSchema = z.object({
  guestId: z.number().int().min(1).max(2_147_483_647),
  /** Replaces the guest's lazy alerts with ones created at these times. */
  lazyAlerts: z.array(epochMsSchema).max(10).optional(),
  suspendedUntil: epochMsSchema.nullable().optional(),
  subscriptionExpiredAt: epochMsSchema.nullable().optional(),
  earlyFinishBlockUntil: epochMsSchema.nullable().optional(),
  /** The plan by its name, without a payment: to show the light plan's hours, for one. */
  subscriptionPlan: z.enum(PLAN_NAMES).optional(),
  /** Jail hours used this month (what finished jails add on the light plan). */
  totalDurationThisMonth: z.number().min(0).max(1_000).optional(),
});
const activityLogsRequestSchema = z.object({
  reservationId: z.number().int().min(1).max(2_147_483_647),
  logs: z.array(activityLogSchema).min(1).max(100),
});
const featureImageRequestSchema = z.object({
  guestId: z.number().int().min(1).max(2_147_483_647),
  /** A JPEG data URL, as a patrol image is. */
  data: z
    .string()
    .max(64 * 1024)
    .refine((data) => jpegDataUrlSize(data).ok, { error: 'not a JPEG data URL' }),
  /** The approving warden; none by default. */
  wardenId: z.number().int().min(1).max(2_147_483_647).nullable().default(null),
});
const featureImageResponseSchema = z.object({ id: z.number() });
const doneSchema = z.object({ ok: z.literal(true) });

/**
 * Development routes, registered only when the operator turns them on with
 * `WARDEN_DEV=1` (never in production; docs/operations.md):
 * `GET /dev/outbox` lists the e-mail and SMS sent, oldest first;
 * `GET /dev/clock` and `POST /dev/clock {offsetMs}` read and set how far the
 * server's clock runs ahead of (or behind) real time;
 * `POST /dev/admin {args}` runs an `npm run admin` command inside the running
 * server (PGlite admits one process, so the command cannot run beside it);
 * `POST /dev/guest-state`, `POST /dev/activity-logs` and
 * `POST /dev/feature-images` set up what only a jail would otherwise produce
 * (lazy alerts, a suspension, an ended trial, a report, a scene a warden
 * approved), for browser tests and for trying the screens by hand.
 */
const dev: FastifyPluginAsync = async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.get('/outbox', { schema: { response: { 200: outboxResponseSchema } } }, async () => ({
    messages: [...app.outbox.messages()],
  }));

  const clockNow = () => ({ offsetMs: app.clock.offsetMs, now: app.clock.now() });

  app.get('/clock', { schema: { response: { 200: clockResponseSchema } } }, async () => clockNow());

  app.post('/clock', { schema: { body: clockRequestSchema, response: { 200: clockResponseSchema } } }, async (request) => {
    app.clock.offsetMs = clockRequestSchema.parse(request.body).offsetMs;
    // Cached answers hold for a time window; moving time drops them all.
    await app.invalidateReadCache('*');
    // Jails due at the new time start and finish before the answer.
    await app.jailScheduler.tick();
    // Renewals due at the new time are charged, and a month turned sets the light plan's hours back to 0.
    await app.billingScheduler.tick();
    // Trigger calls due by then (a finish's first call, a retry's) are made too.
    await app.triggerWorker.tick();
    // And the reminders due by then are sent.
    await app.reminderWorker.tick();
    return clockNow();
  });

  app.post('/admin', { schema: { body: adminRequestSchema, response: { 200: adminResponseSchema, 400: failureSchema } } }, async (request, reply) => {
    try {
      const lines = await runAdmin(adminRequestSchema.parse(request.body).args, app.db, app.clock, app.config, app.endSessionSockets);
      await app.invalidateReadCache('*');
      return { lines };
    } catch (error) {
      if (isUsageError(error)) return reply.code(400).send({ error: error.message });
      throw error;
    }
  });

  app.post('/guest-state', { schema: { body: guestStateRequestSchema, response: { 200: doneSchema, 404: failureSchema } } }, async (request, reply) => {
    const { guestId, lazyAlerts: alertTimes, subscriptionPlan, ...columns } = guestStateRequestSchema.parse(request.body);
    const found = await app.db.transaction(async (tx) => {
      const [guest] = await tx
        .update(guests)
        .set({ ...columns, subscriptionPlan: subscriptionPlan === undefined ? undefined : PLANS[subscriptionPlan].code, updatedAt: app.clock.now() })
        .where(eq(guests.id, guestId))
        .returning({ id: guests.id });
      if (guest === undefined) return false;
      if (alertTimes !== undefined) {
        await tx.delete(lazyAlerts).where(eq(lazyAlerts.guestId, guestId));
        if (alertTimes.length > 0) await tx.insert(lazyAlerts).values(alertTimes.map((createdAt) => ({ guestId, createdAt })));
      }
      return true;
    });
    if (!found) return reply.code(404).send({ error: `no guest has the id ${guestId}` });
    await app.invalidateReadCache(guestId);
    return { ok: true as const };
  });

  app.post('/activity-logs', { schema: { body: activityLogsRequestSchema, response: { 200: doneSchema, 404: failureSchema } } }, async (request, reply) => {
    const { reservationId, logs } = activityLogsRequestSchema.parse(request.body);
    const [reservation] = await app.db.select({ guestId: reservations.guestId }).from(reservations).where(eq(reservations.id, reservationId));
    if (reservation === undefined) return reply.code(404).send({ error: `no reservation has the id ${reservationId}` });
    await app.db.insert(activityLogs).values(logs.map((entry) => ({ reservationId, time: entry.time, entry })));
    await app.invalidateReadCache(reservation.guestId);
    return { ok: true as const };
  });

  app.post(
    '/feature-images',
    { schema: { body: featureImageRequestSchema, response: { 200: featureImageResponseSchema, 404: failureSchema } } },
    async (request, reply) => {
      const { guestId, data, wardenId } = featureImageRequestSchema.parse(request.body);
      const [guest] = await app.db.select({ id: guests.id }).from(guests).where(eq(guests.id, guestId));
      if (guest === undefined) return reply.code(404).send({ error: `no guest has the id ${guestId}` });
      if (wardenId !== null) {
        const [warden] = await app.db.select({ id: wardens.id }).from(wardens).where(eq(wardens.id, wardenId));
        if (warden === undefined) return reply.code(404).send({ error: `no warden has the id ${wardenId}` });
      }
      const [row] = await app.db.insert(featureImages).values({ guestId, data, wardenId, createdAt: app.clock.now() }).returning({ id: featureImages.id });
      if (row === undefined) throw new Error('insert returned no feature image');
      return { id: row.id };
    },
  );
};

export default dev;
