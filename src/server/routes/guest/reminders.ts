import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import {
  addPushDeviceRequestSchema,
  readRemindersRequestSchema,
  remindersSchema,
  removePushDeviceRequestSchema,
  updateRemindersRequestSchema,
} from '../../../shared/api/reminders.ts';
import { guests } from '../../db/schema/index.ts';
import { apiPost } from '../../lib/api.ts';
import { RATE_RULES } from '../../lib/rate-limiter.ts';
import { addPushDevice, assertPushEndpointAllowed, readReminders, removePushDevice, updateReminders } from '../../services/reminders/settings.ts';

/** The reminder calls under /api/guest (docs/reminders.md); each answers the settings as they now are. */
const reminders: FastifyPluginAsync = async (app) => {
  /** The settings as they now are, the guest's row read again after the change. */
  const answer = async (guestId: number) => {
    const [guest] = await app.db.select().from(guests).where(eq(guests.id, guestId));
    if (guest === undefined) throw new Error('the guest went away');
    return { reminders: await readReminders(app.db, guest, app.pushService.publicKey) };
  };

  apiPost(app, '/readReminders', {
    body: readRemindersRequestSchema,
    payload: { reminders: remindersSchema },
    async handler({ guest: credentials }) {
      const guest = await app.authenticatedGuest(credentials);
      return { reminders: await readReminders(app.db, guest, app.pushService.publicKey) };
    },
  });

  apiPost(app, '/updateReminders', {
    body: updateRemindersRequestSchema,
    payload: { reminders: remindersSchema },
    async handler({ guest: credentials, reminders: settings }) {
      const guest = await app.authenticatedGuest(credentials);
      await updateReminders(app.db, guest.id, settings, app.clock.now());
      return answer(guest.id);
    },
  });

  apiPost(app, '/addPushDevice', {
    body: addPushDeviceRequestSchema,
    payload: { reminders: remindersSchema },
    async handler({ guest: credentials, device }) {
      const guest = await app.authenticatedGuest(credentials);
      await app.rateLimiter.enforce(`push-device:guest:${guest.id}`, RATE_RULES.pushDevicesPerGuest);
      assertPushEndpointAllowed(device.endpoint, app.pushService.guard.allowHosts);
      await addPushDevice(app.db, guest.id, device, app.clock.now());
      return answer(guest.id);
    },
  });

  apiPost(app, '/removePushDevice', {
    body: removePushDeviceRequestSchema,
    payload: { reminders: remindersSchema },
    async handler({ guest: credentials, device }) {
      const guest = await app.authenticatedGuest(credentials);
      await removePushDevice(app.db, guest.id, device.id);
      return answer(guest.id);
    },
  });
};

export default reminders;
