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
import { apiPost, callerOf } from '../../lib/api.ts';
import {
  bookReservation,
  bookTrial,
  changeReservation,
  destroyReservation,
  ownRow,
  reservationListForCache,
  skipOccurrence,
  toReservation,
} from '../../services/reservations.ts';

/**
 * The reservation calls (docs/api.md, Reservations), under /api/reservation. Each acts only
 * on the authenticated guest's reservations: another guest's id fails as
 * an unknown id does.
 */
const reservation: FastifyPluginAsync = async (app) => {
  apiPost(app, '/create', {
    access: 'guest',
    body: reservationCreateRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ api, reservation: form }, { guest }) {
      const now = app.clock.now();
      const created = await bookReservation(app.db, guest, form, now, api.language);
      // Read back: a repeating booking may start in a pause.
      return { reservation: toReservation(await ownRow(app.db, guest.id, created.id, now), now) };
    },
  });

  // Try-anyway (docs/try-anyway.md): a jail that starts now, marked a trial.
  apiPost(app, '/try', {
    access: 'guest',
    body: reservationTryRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ api, reservation: request }, { guest }) {
      const now = app.clock.now();
      const created = await bookTrial(app.db, guest, request, now, api.language);
      // A try-anyway jail never repeats: no pause holds it.
      return { reservation: toReservation({ ...created, activityLogs: [], logsSettleAt: null, finishedJail: null, pausedUntil: null }, now) };
    },
  });

  apiPost(app, '/read', {
    access: 'guest',
    body: reservationByIdRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ reservation: { id } }, { guest }) {
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
    {
      schema: { body: authenticatedRequestSchema, response: { 200: responseSchema({ reservations: z.array(reservationSchema) }) } },
      config: { access: 'guest' },
    },
    async (request, reply) => {
      const { guest } = callerOf(request, 'guest');
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
    access: 'guest',
    body: reservationUpdateRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ api, reservation: { id, ...changes } }, { guest }) {
      const now = app.clock.now();
      const updated = await changeReservation(app.db, guest, id, changes, now, api.language);
      return { reservation: toReservation(updated, now) };
    },
  });

  apiPost(app, '/skip', {
    access: 'guest',
    body: reservationByIdRequestSchema,
    payload: { reservation: reservationSchema, nextReservation: reservationSchema },
    async handler({ reservation: { id } }, { guest }) {
      const now = app.clock.now();
      const { skipped, next } = await skipOccurrence(app.db, guest.id, id, now);
      return { reservation: toReservation(skipped, now), nextReservation: toReservation(next, now) };
    },
  });

  apiPost(app, '/destroy', {
    access: 'guest',
    body: reservationByIdRequestSchema,
    payload: { reservation: reservationSchema },
    async handler({ reservation: { id } }, { guest }) {
      const now = app.clock.now();
      const destroyed = await destroyReservation(app.db, guest.id, id, now);
      return { reservation: toReservation(destroyed, now) };
    },
  });
};

export default reservation;
