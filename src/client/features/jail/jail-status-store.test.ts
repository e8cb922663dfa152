import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { loadJailStatus, saveJailStatus } from './jail-status-store.ts';
import { jailSessionSlice, jailResumed, statusRestored } from './sessionSlice.ts';

describe('the jail status kept on the device', () => {
  it("gives back this reservation's status, and nothing for another jail", async () => {
    await saveJailStatus({ reservationId: 7, status: 'breaking', since: 1_000 });
    expect(await loadJailStatus(7)).toEqual({ reservationId: 7, status: 'breaking', since: 1_000 });
    expect(await loadJailStatus(8)).toBeNull();
    await saveJailStatus({ reservationId: 8, status: 'leaving', since: 2_000 });
    expect(await loadJailStatus(7)).toBeNull();
  });

  it('is shown until the relay answers, and the relay wins', () => {
    const reduce = jailSessionSlice.reducer;
    const restored = reduce(undefined, statusRestored({ status: 'leaving', since: 5_000 }));
    expect(restored).toMatchObject({ status: 'leaving', statusSince: 5_000, jail: null });
    const jail = { reservationId: 7, work: 'w', startTime: 0, endTime: 3_600_000, jailStatus: 'injail' as const, statusSince: 0, commands: [1, 2, 3, 4] };
    const resumed = reduce(restored, jailResumed({ guest: { jailStatus: 'injail', statusSince: 6_000 }, jail, warden: null }));
    expect(resumed).toMatchObject({ status: 'injail', statusSince: 6_000 });
    // Once the jail is known, a late local record changes nothing.
    expect(reduce(resumed, statusRestored({ status: 'breaking', since: 7_000 })).status).toBe('injail');
  });
});
