import { describe, expect, it } from 'vitest';
import {
  alertsForceEnd,
  earlyFinishBlock,
  FORCED_ENDS_SUSPENSION,
  IGNORED_JAILS_SUSPENSION,
  isBlockedByEarlyFinish,
  isSuspended,
  suspensionEnd,
} from './penalties.ts';

const NOW = Date.UTC(2026, 10, 21, 20, 7);
const DAY_MS = 86_400_000;

describe('suspension', () => {
  it('suspends at three ignored jails within a week, until a week after the oldest', () => {
    expect(IGNORED_JAILS_SUSPENSION.blockMs).toBe(604_800_000);
    const times = [NOW - 6 * DAY_MS, NOW - DAY_MS, NOW];
    expect(suspensionEnd(IGNORED_JAILS_SUSPENSION, times.slice(1), NOW)).toBeNull();
    expect(suspensionEnd(IGNORED_JAILS_SUSPENSION, times, NOW)).toBe(NOW + DAY_MS);
    // Out of order, and with one older than a week that no longer counts.
    expect(suspensionEnd(IGNORED_JAILS_SUSPENSION, [NOW, NOW - 8 * DAY_MS, NOW - DAY_MS], NOW)).toBeNull();
    expect(suspensionEnd(IGNORED_JAILS_SUSPENSION, [NOW, NOW - 2 * DAY_MS, NOW - 8 * DAY_MS, NOW - DAY_MS], NOW)).toBe(NOW + 5 * DAY_MS);
  });

  it('suspends at three forced ends within a week, counting from the oldest of the last three', () => {
    const times = [NOW - 5 * DAY_MS, NOW - 3 * DAY_MS, NOW - 2 * DAY_MS, NOW];
    expect(suspensionEnd(FORCED_ENDS_SUSPENSION, times, NOW)).toBe(NOW - 3 * DAY_MS + 7 * DAY_MS);
  });

  it('holds a suspension until its end', () => {
    expect(isSuspended(null, NOW)).toBe(false);
    expect(isSuspended(NOW + 1, NOW)).toBe(true);
    expect(isSuspended(NOW, NOW)).toBe(false);
  });
});

describe('early finish', () => {
  it('blocks booking until the original end of the session ended early', () => {
    expect(isBlockedByEarlyFinish(null, NOW)).toBe(false);
    expect(isBlockedByEarlyFinish(NOW + 1, NOW)).toBe(true);
    expect(isBlockedByEarlyFinish(NOW, NOW)).toBe(false);
  });
  it("sets the block to the jail's original end, never shortening one already running", () => {
    expect(earlyFinishBlock(null, NOW)).toBe(NOW);
    expect(earlyFinishBlock(NOW - 1, NOW)).toBe(NOW);
    expect(earlyFinishBlock(NOW, NOW)).toBeNull();
    expect(earlyFinishBlock(NOW + 1, NOW)).toBeNull();
  });
});

describe('alerts', () => {
  it('ends the jail at the fourth alert in the window', () => {
    expect(alertsForceEnd(3)).toBe(false);
    expect(alertsForceEnd(4)).toBe(true);
  });
});
