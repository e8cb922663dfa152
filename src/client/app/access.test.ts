import { describe, expect, it } from 'vitest';
import { accessRedirect } from './access.ts';

describe('access rules', () => {
  it('sends a visitor to / except on the public paths', () => {
    expect(accessRedirect('/', false)).toBeNull();
    for (const path of ['/reservations', '/reservation/add', '/guest/show', '/rules', '/jail/live/3', '/nowhere']) {
      expect(accessRedirect(path, false), path).toBe('/');
    }
    for (const path of [
      '/signin',
      '/signup',
      '/guest/resetPasswordEmail',
      '/guest/updatePassword/abc',
      '/guest/takeBack/abc',
      '/guest/verifyEmail/abc',
      '/guest/loginAsLimFacilitator/tok/3',
      '/guest/deleted',
    ]) {
      expect(accessRedirect(path, false), path).toBeNull();
    }
  });

  it('sends a signed-in guest from /, signin, signup and index.html to /reservations', () => {
    for (const path of ['/', '/signin', '/signup', '/index.html']) expect(accessRedirect(path, true), path).toBe('/reservations');
    for (const path of ['/reservations', '/guest/show', '/reservation/4', '/guest/verifyEmail/abc']) {
      expect(accessRedirect(path, true), path).toBeNull();
    }
  });

  it('shows the page after an account was deleted to the visitor it leaves, and /guest/data only to a guest', () => {
    expect(accessRedirect('/guest/deleted', false)).toBeNull();
    expect(accessRedirect('/guest/deleted', true)).toBeNull();
    expect(accessRedirect('/guest/data', false)).toBe('/');
    expect(accessRedirect('/guest/data', true)).toBeNull();
  });

  it('sends a guest who signed out on this device to the sign-in screen rather than the intro', () => {
    for (const path of ['/reservations', '/guest/show', '/nowhere']) expect(accessRedirect(path, false, true), path).toBe('/signin');
    expect(accessRedirect('/', false, true)).toBeNull();
    expect(accessRedirect('/signup', false, true)).toBeNull();
  });

  it('leaves the camera check open to everyone', () => {
    expect(accessRedirect('/camera-check', false)).toBeNull();
    expect(accessRedirect('/camera-check', true)).toBeNull();
  });
});
