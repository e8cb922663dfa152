import { describe, expect, it } from 'vitest';
import { globalUi } from './globalUi.ts';
import { callFailed, callStarted, errorCleared, internetAvailable, networkSlice, noInternet } from './slices/network.ts';

const reduce = networkSlice.reducer;
const idle = reduce(undefined, { type: 'init' });

describe('globalUi', () => {
  it('shows nothing when quiet', () => {
    expect(globalUi(idle)).toEqual({ overlay: 'none', banner: null, offline: false });
  });

  it('turns the spinner while a call runs', () => {
    expect(globalUi(reduce(idle, callStarted('/guest/read')))).toEqual({ overlay: 'busy', banner: null, offline: false });
  });

  it('shows a failed call in the banner over a still overlay, no spinner behind it; OK clears both', () => {
    const running = reduce(reduce(idle, callStarted('/guest/read')), callStarted('/reservation/list'));
    const failed = reduce(running, callFailed({ kind: '/guest/read', message: 'You are signed out.' }));
    // Another call still runs: the error wins, the spinner does not turn behind it.
    expect(globalUi(failed)).toEqual({ overlay: 'still', banner: 'You are signed out.', offline: false });
    expect(globalUi(reduce(failed, errorCleared()))).toEqual({ overlay: 'busy', banner: null, offline: false });
  });

  it('says offline once: the notice, without the banner or the overlay of the no-internet error', () => {
    const offline = reduce(idle, noInternet('No internet connection.'));
    expect(offline.errorMessage).toBe('No internet connection.');
    expect(globalUi(offline)).toEqual({ overlay: 'none', banner: null, offline: true });
    const cut = reduce(reduce(offline, callStarted('/guest/read')), callFailed({ kind: '/guest/read', message: 'Unable to reach server.' }));
    expect(globalUi(cut)).toEqual({ overlay: 'none', banner: null, offline: true });
  });

  it('shows an error stored while offline once back online', () => {
    const cut = reduce(
      reduce(reduce(idle, noInternet('No internet connection.')), callStarted('/a')),
      callFailed({ kind: '/a', message: 'Unable to reach server.' }),
    );
    expect(globalUi(reduce(cut, internetAvailable()))).toEqual({ overlay: 'still', banner: 'Unable to reach server.', offline: false });
  });
});
