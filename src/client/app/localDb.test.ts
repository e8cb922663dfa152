import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { clearLocal, getLocal, openLocalDb, putLocal } from './localDb.ts';
import { LOCAL_DB_NAME, LOCAL_DB_STORES } from './localDb.ts';

/** The stores each older version had (1: auth; 2: + language; 3: + jailStatus). */
const OLDER: Record<number, string[]> = { 1: ['auth'], 2: ['auth', 'language'], 3: ['auth', 'language', 'jailStatus'] };

describe('local database', () => {
  it('opens version 4 with every store', async () => {
    const db = await openLocalDb(new IDBFactory());
    expect(db.name).toBe('Warden_PWA');
    expect(db.version).toBe(4);
    expect([...db.objectStoreNames].sort()).toEqual([...LOCAL_DB_STORES].sort());
    db.close();
  });

  it('puts, gets (data or null) and clears', async () => {
    const db = await openLocalDb(new IDBFactory());
    expect(await getLocal('auth', 'auth', db)).toBeNull();
    await putLocal('auth', 'auth', { id: 1, token: 't' }, db);
    expect(await getLocal('auth', 'auth', db)).toEqual({ id: 1, token: 't' });
    await putLocal('auth', 'auth', { id: 2, token: 'u' }, db);
    expect(await getLocal('auth', 'auth', db)).toEqual({ id: 2, token: 'u' });
    await putLocal('rememberedWorks', 'list', ['a'], db);
    await clearLocal('auth', db);
    expect(await getLocal('auth', 'auth', db)).toBeNull();
    expect(await getLocal('rememberedWorks', 'list', db)).toEqual(['a']);
    db.close();
  });

  for (const version of [1, 2, 3]) {
    it(`upgrades from version ${version}, keeping the data and adding the missing stores`, async () => {
      const factory = new IDBFactory();
      const globalIdb = globalThis as { indexedDB?: IDBFactory };
      const saved = globalIdb.indexedDB;
      globalIdb.indexedDB = factory;
      const old = await openDB(LOCAL_DB_NAME, version, {
        upgrade(db) {
          for (const store of OLDER[version] ?? []) db.createObjectStore(store, { keyPath: 'id' });
        },
      });
      await old.put('auth', { id: 'auth', data: { id: 7, token: 'kept' } });
      old.close();
      globalIdb.indexedDB = saved;

      const db = await openLocalDb(factory);
      expect(db.version).toBe(4);
      expect([...db.objectStoreNames].sort()).toEqual([...LOCAL_DB_STORES].sort());
      expect(await getLocal('auth', 'auth', db)).toEqual({ id: 7, token: 'kept' });
      db.close();
    });
  }
});
