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
    access: 'guest',
    body: readRemindersRequestSchema,
    payload: { reminders: remindersSchema },
    async handler(_body, { guest }) {
      return { reminders: await readReminders(app.db, guest, app.pushService.publicKey) };
    },
  });

  apiPost(app, '/updateReminders', {
    access: 'guest',
    body: updateRemindersRequestSchema,
    payload: { reminders: remindersSchema },
    async handler({ reminders: settings }, { guest }) {
      await updateReminders(app.db, guest.id, settings, app.clock.now());
      return answer(guest.id);
    },
  });

  apiPost(app, '/addPushDevice', {
    access: 'guest',
    body: addPushDeviceRequestSchema,
    payload: { reminders: remindersSchema },
    async handler({ device }, { guest }) {
      await app.rateLimiter.enforce(`push-device:guest:${guest.id}`, RATE_RULES.pushDevicesPerGuest);
      assertPushEndpointAllowed(device.endpoint, app.pushService.guard.allowHosts);
      await addPushDevice(app.db, guest.id, device, app.clock.now());
      return answer(guest.id);
    },
  });

  apiPost(app, '/removePushDevice', {
    access: 'guest',
    body: removePushDeviceRequestSchema,
    payload: { reminders: remindersSchema },
    async handler({ device }, { guest }) {
      await removePushDevice(app.db, guest.id, device.id);
      return answer(guest.id);
    },
  });
};

export default reminders;
