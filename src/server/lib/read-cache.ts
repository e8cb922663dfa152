import type { GuestRow, SessionRow } from '../db/schema/index.ts';

/**
 * The per-process read cache (docs/server.md, "The read cache"): per guest,
 * the sessions that authenticated (session and guest rows by token hash) and the
 * serialized answer of `reservation/read_list`. A hit does no database query.
 *
 * Correctness rests on three things:
 * - every write invalidates what it touched (the `/api` hook of
 *   plugins/read-cache-hooks.ts for a guest's own calls, the handlers that
 *   write a guest by a token, `POST /dev/clock`, the admin command, and
 *   other processes through PostgreSQL NOTIFY);
 * - a value read from the database is stored only when no invalidation
 *   happened since the read began (`generation`), so a read that raced a
 *   write never stores what the write replaced;
 * - a list is served only within the time window its statuses hold
 *   (`from` ≤ now < `until`, by the server's clock).
 * A cached session is only what the database said: the caller checks its
 * lifetimes at every use (services/sessions.ts), so the cache never keeps an
 * ended session alive.
 */

export interface ReadCacheLimits {
  /** Guests with an entry; the least recently used goes first. */
  maxGuests: number;
  /** Sessions kept per guest; the oldest goes first. */
  maxSessionsPerGuest: number;
  /** A longer list answer is not cached. */
  maxListBytes: number;
  /** All list answers together; least recently used guests go first. */
  maxTotalListBytes: number;
}

export const DEFAULT_READ_CACHE_LIMITS: ReadCacheLimits = {
  maxGuests: 10_000,
  maxSessionsPerGuest: 8,
  maxListBytes: 256 * 1024,
  maxTotalListBytes: 64 * 1024 * 1024,
};

/** A serialized answer and the server times between which it holds. */
export interface CachedAnswer {
  json: string;
  /** The time it was computed at: before it the statuses may differ (the clock moved back). */
  from: number;
  /** The first time at which a status in it changes (or an occurrence ends and rolls forward). */
  until: number;
}

/** An open session as last read, and its guest. */
export interface CachedSession {
  guest: GuestRow;
  session: SessionRow;
}

interface Entry {
  sessions: Map<string, CachedSession>;
  list: CachedAnswer | null;
}

export interface ReadCacheStats {
  sessionHits: number;
  sessionMisses: number;
  listHits: number;
  listMisses: number;
  invalidations: number;
  clears: number;
}

export class ReadCache {
  private readonly entries = new Map<number, Entry>();
  private listBytes = 0;
  private generationCount = 0;
  /** Off: nothing is served or stored (e.g. while cross-process invalidation is down). */
  private isEnabled = true;
  readonly stats: ReadCacheStats = { sessionHits: 0, sessionMisses: 0, listHits: 0, listMisses: 0, invalidations: 0, clears: 0 };

  constructor(readonly limits: ReadCacheLimits = DEFAULT_READ_CACHE_LIMITS) {}

  /** Changes at every invalidation; take it before a database read, give it back to `store…`. */
  get generation(): number {
    return this.generationCount;
  }

  get enabled(): boolean {
    return this.isEnabled;
  }

  /** Turns caching on or off; either way everything cached is dropped. */
  setEnabled(enabled: boolean): void {
    this.clear();
    this.isEnabled = enabled;
  }

  /** Guests with an entry. */
  get size(): number {
    return this.entries.size;
  }

  /** The session and guest rows as last read, or undefined (ask the database). */
  session(guestId: number, tokenHash: string): CachedSession | undefined {
    const row = this.entries.get(guestId)?.sessions.get(tokenHash);
    if (row === undefined) {
      this.stats.sessionMisses += 1;
      return undefined;
    }
    this.stats.sessionHits += 1;
    this.touch(guestId);
    return row;
  }

  storeSession(guestId: number, tokenHash: string, value: CachedSession, generation: number): void {
    if (!this.isEnabled || generation !== this.generationCount) return;
    const entry = this.entryOf(guestId);
    entry.sessions.delete(tokenHash);
    entry.sessions.set(tokenHash, Object.freeze({ guest: Object.freeze({ ...value.guest }), session: Object.freeze({ ...value.session }) }));
    while (entry.sessions.size > this.limits.maxSessionsPerGuest) {
      const oldest = entry.sessions.keys().next();
      if (oldest.done === true) break;
      entry.sessions.delete(oldest.value);
    }
  }

  /** Records a renewal of a cached session (`lastSeenAt` written to the database); nothing else changes. */
  sessionSeen(guestId: number, tokenHash: string, lastSeenAt: number): void {
    const entry = this.entries.get(guestId);
    const cached = entry?.sessions.get(tokenHash);
    if (entry === undefined || cached === undefined) return;
    entry.sessions.set(tokenHash, Object.freeze({ guest: cached.guest, session: Object.freeze({ ...cached.session, lastSeenAt }) }));
  }

  /** The guest's `read_list` answer if it holds at `now`, else undefined. */
  list(guestId: number, now: number): string | undefined {
    const list = this.entries.get(guestId)?.list;
    if (list === undefined || list === null || now < list.from || now >= list.until) {
      this.stats.listMisses += 1;
      return undefined;
    }
    this.stats.listHits += 1;
    this.touch(guestId);
    return list.json;
  }

  storeList(guestId: number, answer: CachedAnswer, generation: number): void {
    if (!this.isEnabled || generation !== this.generationCount) return;
    if (answer.json.length > this.limits.maxListBytes || answer.until <= answer.from) return;
    const entry = this.entryOf(guestId);
    this.listBytes += answer.json.length - (entry.list?.json.length ?? 0);
    entry.list = answer;
    this.evict();
  }

  /** Drops the guest's entry (sessions and list). */
  invalidate(guestId: number): void {
    this.generationCount += 1;
    this.stats.invalidations += 1;
    this.drop(guestId);
  }

  /** Drops everything. */
  clear(): void {
    this.generationCount += 1;
    this.stats.clears += 1;
    this.entries.clear();
    this.listBytes = 0;
  }

  /** The guest's entry, made the most recently used (so eviction never takes what is being stored). */
  private entryOf(guestId: number): Entry {
    const entry = this.entries.get(guestId) ?? { sessions: new Map(), list: null };
    this.entries.delete(guestId);
    this.entries.set(guestId, entry);
    this.evict();
    return entry;
  }

  /** Marks the guest most recently used (a Map iterates in insertion order). */
  private touch(guestId: number): void {
    const entry = this.entries.get(guestId);
    if (entry === undefined) return;
    this.entries.delete(guestId);
    this.entries.set(guestId, entry);
  }

  private drop(guestId: number): void {
    const entry = this.entries.get(guestId);
    if (entry === undefined) return;
    this.listBytes -= entry.list?.json.length ?? 0;
    this.entries.delete(guestId);
  }

  private evict(): void {
    while (this.entries.size > this.limits.maxGuests || this.listBytes > this.limits.maxTotalListBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) return;
      this.drop(oldest.value);
    }
  }
}
