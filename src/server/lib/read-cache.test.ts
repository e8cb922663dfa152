import { describe, expect, it } from 'vitest';
import type { GuestRow, SessionRow } from '../db/schema/index.ts';
import { ReadCache } from './read-cache.ts';

const row = {
  guest: { id: 1, title: 'guest' } as GuestRow,
  session: { tokenHash: 'hash', id: 1, guestId: 1, wardenId: null, createdAt: 0, lastSeenAt: 0, browser: null, os: null } satisfies SessionRow,
};

describe('ReadCache', () => {
  it('keeps a session and a list, and drops both on invalidation', () => {
    const cache = new ReadCache();
    cache.storeSession(1, 'hash', row, cache.generation);
    cache.storeList(1, { json: '{}', from: 100, until: 200 }, cache.generation);
    expect(cache.session(1, 'hash')).toEqual(row);
    expect(cache.session(1, 'other')).toBeUndefined();
    expect(cache.session(2, 'hash')).toBeUndefined();
    expect(cache.list(1, 150)).toBe('{}');
    cache.invalidate(1);
    expect(cache.session(1, 'hash')).toBeUndefined();
    expect(cache.list(1, 150)).toBeUndefined();
  });

  it('serves a list only inside its time window', () => {
    const cache = new ReadCache();
    cache.storeList(1, { json: '[]', from: 100, until: 200 }, cache.generation);
    expect(cache.list(1, 99)).toBeUndefined();
    expect(cache.list(1, 100)).toBe('[]');
    expect(cache.list(1, 199)).toBe('[]');
    expect(cache.list(1, 200)).toBeUndefined();
  });

  it('does not store what was read before an invalidation', () => {
    const cache = new ReadCache();
    const before = cache.generation;
    cache.invalidate(7);
    cache.storeSession(1, 'hash', row, before);
    cache.storeList(1, { json: '{}', from: 0, until: 10 }, before);
    expect(cache.session(1, 'hash')).toBeUndefined();
    expect(cache.list(1, 5)).toBeUndefined();
    const afterClear = cache.generation;
    cache.clear();
    cache.storeSession(1, 'hash', row, afterClear);
    expect(cache.session(1, 'hash')).toBeUndefined();
  });

  it('stores nothing while off', () => {
    const cache = new ReadCache();
    cache.setEnabled(false);
    cache.storeSession(1, 'hash', row, cache.generation);
    expect(cache.session(1, 'hash')).toBeUndefined();
  });

  it('is bounded: guests (least recently used first), sessions per guest, bytes per list and in all', () => {
    const cache = new ReadCache({ maxGuests: 2, maxSessionsPerGuest: 2, maxListBytes: 10, maxTotalListBytes: 15 });
    cache.storeSession(1, 'a', row, cache.generation);
    cache.storeSession(2, 'a', row, cache.generation);
    expect(cache.session(1, 'a')).toBeDefined(); // 1 is now the most recent
    cache.storeSession(3, 'a', row, cache.generation);
    expect(cache.size).toBe(2);
    expect(cache.session(2, 'a')).toBeUndefined();
    expect(cache.session(1, 'a')).toBeDefined();

    cache.storeSession(1, 'b', row, cache.generation);
    cache.storeSession(1, 'c', row, cache.generation);
    expect(cache.session(1, 'a')).toBeUndefined();
    expect(cache.session(1, 'c')).toBeDefined();

    cache.storeList(1, { json: '12345678901', from: 0, until: 10 }, cache.generation);
    expect(cache.list(1, 1)).toBeUndefined();
    cache.storeList(1, { json: '12345678', from: 0, until: 10 }, cache.generation);
    cache.storeList(3, { json: '12345678', from: 0, until: 10 }, cache.generation);
    expect(cache.size).toBe(1);
    expect(cache.list(3, 1)).toBe('12345678');
  });
});
