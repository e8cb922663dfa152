import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import routeAccess from './access.ts';

describe('the access hook', () => {
  it('stops the server at start when a route names no access, so nothing is open by accident', async () => {
    const app = Fastify();
    // Not awaited: the start (`ready`) is what must fail.
    void app.register(async (api) => {
      await api.register(routeAccess);
      api.post('/forgotten', async () => ({}));
    });
    await expect(app.ready()).rejects.toThrow('POST /forgotten names no access');
    await app.close();
  });

  it('lets a route that names its access start', async () => {
    const app = Fastify();
    await app.register(async (api) => {
      await api.register(routeAccess);
      api.post('/open', { config: { access: 'public' } }, async () => ({ ok: true }));
    });
    await app.ready();
    expect((await app.inject({ method: 'POST', url: '/open', payload: {} })).json()).toEqual({ ok: true });
    await app.close();
  });
});
