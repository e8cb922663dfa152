import type { FastifyPluginAsync, FastifyInstance } from 'fastify';
import { ApiFailure } from '../../lib/api.ts';
import fastifyPlugin from 'fastify-plugin';
import { checkedAddress, hostOf, parseAllowHosts, systemResolver, TriggerAddressRefused } from './address-guard.ts';
import { TRIGGER_TIMEOUT_MS, type CallGuard } from './caller.ts';
import { TriggerWorker } from './deliveries.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Calls the guests' triggers after their jails (docs/collaboration.md). */
    triggerWorker: TriggerWorker;
    /** Which addresses the triggers may reach (`TRIGGER_ALLOW_HOSTS` exempts hosts). */
    triggerGuard: CallGuard;
  }
}

/** Starts the trigger delivery worker with the server and stops it before the database closes. */
async function triggerDeliveryPlugin(app: FastifyInstance): Promise<void> {
  const guard = { allowHosts: parseAllowHosts(process.env.TRIGGER_ALLOW_HOSTS), resolve: systemResolver, timeoutMs: TRIGGER_TIMEOUT_MS };
  const worker = new TriggerWorker(app.db, app.clock, guard, app.log);
  app.decorate('triggerWorker', worker);
  app.decorate('triggerGuard', guard);
  app.addHook('onReady', async () => worker.start());
  app.addHook('preClose', async () => worker.stop());
}

export const triggerDelivery: FastifyPluginAsync = fastifyPlugin(triggerDeliveryPlugin, { name: 'trigger-delivery' });

/**
 * The check of a trigger URL when the guest saves it: no address its host
 * resolves to may be internal. A host that does not resolve yet is accepted
 * (its DNS may come later); the call checks again when it connects.
 */
export async function assertTriggerUrlAllowed(url: string, guard: CallGuard): Promise<void> {
  try {
    await checkedAddress(hostOf(new URL(url)), guard.allowHosts, guard.resolve);
  } catch (error) {
    if (!(error instanceof TriggerAddressRefused)) throw error;
    if (error.refusal === 'forbidden_address') throw new ApiFailure('trigger_url_forbidden');
  }
}
