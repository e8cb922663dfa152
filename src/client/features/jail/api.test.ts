import { describe, expect, it } from 'vitest';
import { logout } from '../../app/session.ts';
import { makeStore } from '../../app/store.ts';
import { featureImagesReceived, jailApi } from './api.ts';

/** The whitelist that the relay's `feature_images_to_guest` writes into the API cache (useGuestRelay.ts). */
describe('the approved scenes of the live screen', () => {
  const whitelist = (store: ReturnType<typeof makeStore>) => jailApi.endpoints.featureImageWhitelist.select()(store.getState()).data;

  it('starts empty, and each relay event replaces it', async () => {
    const store = makeStore();
    const screen = store.dispatch(jailApi.endpoints.featureImageWhitelist.initiate());
    await screen;
    expect(whitelist(store)).toEqual([]);
    await store.dispatch(
      featureImagesReceived([
        { id: 1, data: 'data:a' },
        { id: 2, data: 'data:b' },
      ]),
    );
    expect(whitelist(store)).toEqual(['data:a', 'data:b']);
    await store.dispatch(featureImagesReceived([{ id: 3, data: 'data:c' }]));
    expect(whitelist(store)).toEqual(['data:c']);
    screen.unsubscribe();
  });

  it('keeps an event that came before the screen read it, and leaves with the session', async () => {
    const store = makeStore();
    await store.dispatch(featureImagesReceived([{ id: 1, data: 'data:a' }]));
    const screen = store.dispatch(jailApi.endpoints.featureImageWhitelist.initiate());
    await screen;
    expect(whitelist(store)).toEqual(['data:a']);
    logout(store);
    expect(whitelist(store)).toBeUndefined();
    screen.unsubscribe();
  });
});
