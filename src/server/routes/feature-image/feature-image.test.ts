import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeatureImage } from '../../../shared/api/featureImage.ts';
import { runAdmin } from '../../admin.ts';
import { featureImages } from '../../db/schema/index.ts';
import { apiBlock, credentials, fail, signUp, startTestServer, succeed, useListeningTestServer, type TestGuest } from '../../test/harness.ts';
import { RelayClient } from '../../test/relay-client.ts';

/**
 * `/featureImage/read` and `/featureImage/destroy`: a guest's approved
 * scenes, each guest reaching only their own; a removal reaches the guest's
 * device on the relay. Scenes are seeded with `POST /dev/feature-images`.
 */

const server = useListeningTestServer();
const clients: RelayClient[] = [];
const jpeg = `data:image/jpeg;base64,${readFileSync(new URL('../../jail/fixtures/canvas-40x30.jpg', import.meta.url)).toString('base64')}`;

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

async function newWarden(title: string): Promise<number> {
  const suffix = Math.random().toString(36).slice(2, 10);
  const [created] = await runAdmin(
    ['create-warden', '--title', `${title} ${suffix}`, '--email', `w-${suffix}@example.com`],
    server.app.db,
    server.clock,
    server.app.config,
  );
  return Number(/^warden (\d+)/.exec(created ?? '')?.[1]);
}

async function seed(guest: TestGuest, wardenId: number | null = null): Promise<number> {
  const response = await server.app.inject({ method: 'POST', url: '/dev/feature-images', payload: { guestId: guest.id, data: jpeg, wardenId } });
  expect(response.statusCode).toBe(200);
  return response.json<{ id: number }>().id;
}

async function list(guest: TestGuest): Promise<FeatureImage[]> {
  return (await succeed(server.app, '/featureImage/read', { api: apiBlock(), guest: credentials(guest) })).featureImages as FeatureImage[];
}

function destroyBody(guest: TestGuest, id: unknown, language: 'en' | 'ja' = 'en') {
  return { api: apiBlock(language), guest: credentials(guest), featureImage: { id } };
}

describe('approved scenes', () => {
  it('lists the guest’s scenes oldest first, with the time and the approving warden, and removes one', async () => {
    const guest = await signUp(server.app);
    expect(await list(guest)).toEqual([]);
    const wardenId = await newWarden('Kato');
    const before = server.clock.now();
    const first = await seed(guest, wardenId);
    const second = await seed(guest);
    const scenes = await list(guest);
    expect(scenes).toEqual([
      { id: first, data: jpeg, createdAt: expect.any(Number), wardenTitle: expect.stringMatching(/^Kato /) },
      { id: second, data: jpeg, createdAt: expect.any(Number), wardenTitle: null },
    ]);
    expect(scenes[0]?.createdAt).toBeGreaterThanOrEqual(before);
    expect((await succeed(server.app, '/featureImage/destroy', destroyBody(guest, first))).featureImage).toEqual({ id: first });
    expect((await list(guest)).map((scene) => scene.id)).toEqual([second]);
    expect(await fail(server.app, '/featureImage/destroy', destroyBody(guest, String(first)))).toBe('This approved scene was not found.');
  });

  it("refuses another guest's scene as an unknown one, in the call's language, and keeps it", async () => {
    const owner = await signUp(server.app);
    const other = await signUp(server.app);
    const id = await seed(owner);
    expect(await fail(server.app, '/featureImage/destroy', destroyBody(other, id))).toBe('This approved scene was not found.');
    expect(await fail(server.app, '/featureImage/destroy', destroyBody(other, id, 'ja'))).toBe('この承認済みのシーンは見つかりません。');
    expect(await list(other)).toEqual([]);
    expect((await list(owner)).map((scene) => scene.id)).toEqual([id]);
    const rows = await server.app.db.select({ id: featureImages.id }).from(featureImages).where(eq(featureImages.id, id));
    expect(rows).toHaveLength(1);
  });

  it('refuses a bad id, a missing scene and wrong credentials without a 5xx', async () => {
    const guest = await signUp(server.app);
    expect(await fail(server.app, '/featureImage/destroy', destroyBody(guest, 'one'))).toBe('The request is invalid: featureImage.id.');
    expect(await fail(server.app, '/featureImage/destroy', { api: apiBlock(), guest: credentials(guest) })).toBe('The request is invalid: featureImage.');
    expect(await fail(server.app, '/featureImage/read', { api: apiBlock(), guest: { id: guest.id, token: 'x'.repeat(43) } })).toBe(
      'You are signed out. Please sign in again.',
    );
  });

  it("sends the guest's devices the list left after a removal", async () => {
    const guest = await signUp(server.app);
    const kept = await seed(guest);
    const removed = await seed(guest);
    const device = await RelayClient.connect(server.url, { guest: credentials(guest) });
    clients.push(device);
    const update = device.next<{ featureImages: { id: number; data: string }[] }>('feature_images_to_guest');
    await succeed(server.app, '/featureImage/destroy', destroyBody(guest, removed));
    expect((await update).featureImages).toEqual([{ id: kept, data: jpeg }]);
  });
});

describe('POST /dev/feature-images', () => {
  it('answers 404 for an unknown guest or warden and 400 for data that is not a JPEG', async () => {
    const guest = await signUp(server.app);
    const post = (payload: Record<string, unknown>) => server.app.inject({ method: 'POST', url: '/dev/feature-images', payload });
    expect((await post({ guestId: 999_999, data: jpeg })).statusCode).toBe(404);
    expect((await post({ guestId: guest.id, data: jpeg, wardenId: 999_999 })).statusCode).toBe(404);
    expect((await post({ guestId: guest.id, data: 'data:image/png;base64,AAAA' })).statusCode).toBe(400);
    expect(await list(guest)).toEqual([]);
  });

  it('is not there without WARDEN_DEV (in production)', async () => {
    const production = await startTestServer({ isProduction: true, devRoutes: false });
    try {
      const response = await production.app.inject({ method: 'POST', url: '/dev/feature-images', payload: { guestId: 1, data: jpeg } });
      expect(response.statusCode).toBe(404);
    } finally {
      await production.close();
    }
  }, 30_000);
});
