import type { FastifyRequest, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guestCredentialsSchema } from '../../shared/api/envelope.ts';
import { wardenCredentialsSchema } from '../../shared/api/warden.ts';
import { ApiFailure, type Access, type Callers } from '../lib/api.ts';
import { refuseFacilitator } from '../services/sessions.ts';
import { wardenSessionOf } from '../services/wardens.ts';
import fastifyPlugin from 'fastify-plugin';

const guestCarrier = z.object({ guest: guestCredentialsSchema });
const wardenCarrier = z.object({ warden: wardenCredentialsSchema });

/**
 * Authentication in one place (docs/api.md, "Who may call"): in the `/api`
 * context every route names its access (`config.access`, set by `apiPost`;
 * a route without one stops the server at start), and one hook
 * authenticates the caller by it after the body is validated and before the
 * handler runs, which receives the caller typed (`callerOf`).
 */
async function accessPlugin(app: FastifyInstance): Promise<void> {
  const authenticators: { [A in Access]: (body: unknown) => Promise<Callers[A]> } = {
    public: async () => null,
    guest: (body) => app.authenticatedSession(guestCarrier.parse(body).guest),
    'guest-not-facilitator': async (body) => {
      const found = await app.authenticatedSession(guestCarrier.parse(body).guest);
      refuseFacilitator(found.session);
      return found;
    },
    warden: async (body) => {
      const found = await wardenSessionOf(app.db, wardenCarrier.parse(body).warden.token, app.clock.now());
      if (found === null) throw new ApiFailure('warden_signed_out');
      return found;
    },
  };

  async function authenticate<A extends Access>(request: FastifyRequest, access: A): Promise<void> {
    const callers: Partial<Callers> = {};
    callers[access] = await authenticators[access](request.body);
    request.callers = callers;
  }

  app.decorateRequest('callers', null);
  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined) throw new Error(`${route.method} ${route.url} names no access (lib/api.ts, Access)`);
  });
  app.addHook('preHandler', async (request) => {
    const { access } = request.routeOptions.config;
    if (access === undefined) throw new Error(`${request.url} names no access`);
    await authenticate(request, access);
  });
}

export default fastifyPlugin(accessPlugin, { name: 'access' });
