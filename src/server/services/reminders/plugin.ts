import type { FastifyPluginAsync, FastifyInstance } from 'fastify';
import { appUrl } from '../../config.ts';
import fastifyPlugin from 'fastify-plugin';
import { parseAllowHosts, systemResolver } from '../triggers/address-guard.ts';
import { TRIGGER_TIMEOUT_MS, type CallGuard } from '../triggers/caller.ts';
import { vapidKeys } from './keys.ts';
import { ReminderWorker } from './worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the reminders before jails (docs/reminders.md). */
    reminderWorker: ReminderWorker;
    /** The VAPID public key browsers subscribe with, and the guard push addresses pass. */
    pushService: { publicKey: string; guard: CallGuard };
  }
}

/**
 * The reminders: the VAPID keys (configured, or made once and kept in the
 * database), and the worker, started with the server and stopped before the
 * database closes. `PUSH_ALLOW_HOSTS` adds hosts to the push services and
 * exempts them from the address guard, for a local push service in tests, as
 * `TRIGGER_ALLOW_HOSTS` does for triggers.
 */
async function remindersPlugin(app: FastifyInstance): Promise<void> {
  const guard: CallGuard = { allowHosts: parseAllowHosts(process.env.PUSH_ALLOW_HOSTS), resolve: systemResolver, timeoutMs: TRIGGER_TIMEOUT_MS };
  const vapid = await vapidKeys(app.db, app.config.vapidKeys);
  const worker = new ReminderWorker(
    app.db,
    app.clock,
    guard,
    app.outbox,
    { appUrl: appUrl(app.config), vapid, vapidSubject: app.config.vapidSubject },
    app.log,
  );
  app.decorate('reminderWorker', worker);
  app.decorate('pushService', { publicKey: vapid.publicKey, guard });
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
}

export const reminders: FastifyPluginAsync = fastifyPlugin(remindersPlugin, { name: 'reminders' });
