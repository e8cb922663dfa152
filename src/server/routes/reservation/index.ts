import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { authenticatedRequestSchema, responseSchema, successResponseSchema } from '../../../shared/api/envelope.ts';
import {
  reservationByIdRequestSchema,
  reservationCreateRequestSchema,
  reservationSchema,
  reservationTryRequestSchema,
  reservationUpdateRequestSchema,
} from '../../../shared/api/reservation.ts';
import {
  bookingProblem,
  isChangeAllowed,
  isOfferedDuration,
  isSameBooking,
  isSkipAllowed,
  nextOccurrenceStart,
  normalizedBooking,
  type BookingRequest,
} from '../../../shared/reservations.ts';
import { reservations, type ReservationRow } from '../../db/schema/index.ts';
import { ApiFailure, apiPost } from '../../lib/api.ts';
import {
  assertFits,
  assertMayBook,
  assertMayTry,
  bookReservation,
  bookingOf,
  bookingSource,
  changeAsGuest,
  guestRows,
  guestTimeZone,
  occurrenceRow,
  ownRow,
  repeatRuleOfRow,
  reservationListForCache,
  toReservation,
} from '../../services/reservations.ts';

/** Fails with the message of the first rule of SPEC §5 the booking (as sent, before normalizing) breaks. */
function assertValid(booking: BookingRequest, now: number, timeZone: string): void {
  const problem = bookingProblem(booking, now, timeZone);
  if (problem !== null) throw new ApiFailure(problem);
}

/** Update, skip and destroy act only on an occurrence to come, more than 6 hours ahead. */
function assertChangeable(row: ReservationRow, now: number): void {
  if (row.finishReason !== null) throw new ApiFailure('reservation_finished');
  if (!isChangeAllowed(row.startTime, now)) throw new ApiFailure('no_change_within_6_hours');
}

/**
 * The reservation calls of SPEC §7, under /api/reservation. Each acts only
 * on the authenticated guest's reservations: another guest's id fails as
 * an unknown id does.
 */
const reservation: FastifyPluginAsync = async (app) => {
  apiPost(app, '/create', {
    body: reservationCreateRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ api, guest: credentials, reservation: form }) {
      const guest = await app.authenticatedGuest(credentials);
      const now = app.clock.now();
      const created = await bookReservation(app.db, guest, form, now, api.language);
      return { reservation: toReservation({ ...created, activityLogs: [], logsSettleAt: null }, now) };
    },
  });

  // Try-anyway (docs/try-anyway.md): a jail of the work and duration that
  // starts now (to the second), without repeat or schedule, marked a trial.
  // The gates of a booking apply but the phone number: a new guest may try.
  apiPost(app, '/try', {
    body: reservationTryRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ api, guest: credentials, reservation: { work, duration } }) {
      const guest = await app.authenticatedGuest(credentials);
      const now = app.clock.now();
      assertMayBook(guest, now, api.language, false);
      if (!isOfferedDuration(duration)) throw new ApiFailure('duration_not_offered');
      const timeZone = guestTimeZone(guest);
      const booking = normalizedBooking({ work, duration, startTime: now - (now % 1000), repeatType: 'none', dailyRepeatSettings: [], schedules: [] });
      const created = await changeAsGuest(app.db, guest.id, async (tx) => {
        assertMayTry(guest, booking.startTime, booking.duration, await guestRows(tx, guest.id, now), api.language);
        const [row] = await tx
          .insert(reservations)
          .values(occurrenceRow({ ...bookingSource(guest.id, booking, timeZone), isTrial: true }, booking.startTime, null, now))
          .returning();
        if (row === undefined) throw new Error('insert returned no reservation');
        return row;
      });
      return { reservation: toReservation({ ...created, activityLogs: [], logsSettleAt: null }, now) };
    },
  });

  apiPost(app, '/read', {
    body: reservationByIdRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ guest: credentials, reservation: { id } }) {
      const guest = await app.authenticatedGuest(credentials);
      const now = app.clock.now();
      const row = await ownRow(app.db, guest.id, id, now);
      return { reservation: toReservation(row, now) };
    },
  });

  // read_list answers from the read cache (docs/server.md, "The read
  // cache"): the answer is serialized once, checked against its schema
  // then, and sent as it is until a write or the clock invalidates it.
  const readListAnswerSchema = successResponseSchema({ reservations: z.array(reservationSchema) });
  app.post(
    '/read_list',
    { schema: { body: authenticatedRequestSchema, response: { 200: responseSchema({ reservations: z.array(reservationSchema) }) } } },
    async (request, reply) => {
      const { guest: credentials } = request.body as z.output<typeof authenticatedRequestSchema>;
      const guest = await app.authenticatedGuest(credentials);
      const now = app.clock.now();
      let json = app.readCache.list(guest.id, now);
      if (json === undefined) {
        const generation = app.readCache.generation;
        const { reservations: list, cacheUntil } = await reservationListForCache(app.db, guest.id, now);
        json = JSON.stringify(readListAnswerSchema.parse({ api: { status: 'success' }, reservations: list }));
        if (cacheUntil !== null) app.readCache.storeList(guest.id, { json, from: now, until: cacheUntil }, generation);
      }
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  apiPost(app, '/update', {
    body: reservationUpdateRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ api, guest: credentials, reservation: { id, ...changes } }) {
      const guest = await app.authenticatedGuest(credentials);
      const now = app.clock.now();
      const timeZone = guestTimeZone(guest);
      const updated = await changeAsGuest(app.db, guest.id, async (tx) => {
        const row = await ownRow(tx, guest.id, id, now);
        const current = bookingOf(row);
        const changed: BookingRequest = {
          work: changes.work ?? current.work,
          duration: changes.duration ?? current.duration,
          startTime: changes.startTime ?? current.startTime,
          repeatType: changes.repeatType ?? current.repeatType,
          dailyRepeatSettings: changes.dailyRepeatSettings ?? current.dailyRepeatSettings,
          schedules: changes.schedules ?? current.schedules,
        };
        if (isSameBooking(changed, current)) return row;
        assertChangeable(row, now);
        assertValid(changed, now, timeZone);
        const booking = normalizedBooking(changed);
        const others = (await guestRows(tx, guest.id, now)).filter((other) => other.id !== row.id);
        assertFits(guest, booking, others, api.language);
        const [saved] = await tx
          .update(reservations)
          .set({
            ...occurrenceRow(bookingSource(guest.id, booking, timeZone), booking.startTime, null, now),
            createdAt: row.createdAt,
          })
          .where(and(eq(reservations.id, row.id), eq(reservations.guestId, guest.id)))
          .returning();
        if (saved === undefined) throw new Error('update returned no reservation');
        return { ...saved, activityLogs: row.activityLogs, logsSettleAt: row.logsSettleAt };
      });
      return { reservation: toReservation(updated, now) };
    },
  });

  apiPost(app, '/skip', {
    body: reservationByIdRequestSchema,
    payload: { reservation: reservationSchema, nextReservation: reservationSchema },
    async handler({ guest: credentials, reservation: { id } }) {
      const guest = await app.authenticatedGuest(credentials);
      const now = app.clock.now();
      const { skipped, next } = await changeAsGuest(app.db, guest.id, async (tx) => {
        const row = await ownRow(tx, guest.id, id, now);
        if (row.finishReason !== null) throw new ApiFailure('reservation_finished');
        if (row.repeatType === 'none') throw new ApiFailure('skip_not_repeating');
        if (!isSkipAllowed(row, now)) throw new ApiFailure('no_change_within_6_hours');
        const nextStart = nextOccurrenceStart(repeatRuleOfRow(row), row.startTime);
        if (nextStart === null) throw new Error(`repeating reservation ${row.id} has no next occurrence`);
        const [skippedRow] = await tx
          .update(reservations)
          .set({ finishReason: 'skipped', updatedAt: now })
          .where(and(eq(reservations.id, row.id), eq(reservations.guestId, guest.id)))
          .returning();
        const [nextRow] = await tx.insert(reservations).values(occurrenceRow(row, nextStart, null, now)).returning();
        if (skippedRow === undefined || nextRow === undefined) throw new Error('skip wrote no reservation');
        return { skipped: { ...skippedRow, activityLogs: row.activityLogs, logsSettleAt: row.logsSettleAt }, next: { ...nextRow, activityLogs: [], logsSettleAt: null } };
      });
      return { reservation: toReservation(skipped, now), nextReservation: toReservation(next, now) };
    },
  });

  apiPost(app, '/destroy', {
    body: reservationByIdRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ guest: credentials, reservation: { id } }) {
      const guest = await app.authenticatedGuest(credentials);
      const now = app.clock.now();
      const destroyed = await changeAsGuest(app.db, guest.id, async (tx) => {
        const row = await ownRow(tx, guest.id, id, now);
        assertChangeable(row, now);
        const answer = toReservation(row, now);
        await tx.delete(reservations).where(and(eq(reservations.id, row.id), eq(reservations.guestId, guest.id)));
        return answer;
      });
      return { reservation: destroyed };
    },
  });
};

export default reservation;
