import { openDB, type IDBPDatabase } from 'idb';

/** Name of the per-device IndexedDB database. */
export const LOCAL_DB_NAME = 'Warden_PWA';
/** Version of the local database; upgrading creates the stores missing at that version. */
const LOCAL_DB_VERSION = 4;
/** Object stores of the local database, keyed by `id` with the value in `data`. */
export const LOCAL_DB_STORES = ['auth', 'language', 'jailStatus', 'rememberedWorks'] as const;
type LocalDbStore = (typeof LOCAL_DB_STORES)[number];

/**
 * The per-device database (docs/client.md, State): `Warden_PWA` version 4, stores `auth`,
 * `language`, `jailStatus` and `rememberedWorks`, each keyed by `id` with the
 * value in `data`. Upgrading from an older version creates only the stores
 * missing at that version.
 */

/** The Japanese alert shown when the database cannot be opened (docs/client.md, Failures the guest sees). */
export const LOCAL_DB_FAILURE_MESSAGE = 'IndexedDBへの接続に失敗しました';

export interface LocalRecord<T = unknown> {
  id: string;
  data: T;
}

/** Opens (and upgrades) the database on `factory` (the browser's by default; fake-indexeddb in tests). */
export async function openLocalDb(factory?: IDBFactory): Promise<IDBPDatabase> {
  const previous = globalThis.indexedDB;
  if (factory !== undefined) (globalThis as { indexedDB: IDBFactory }).indexedDB = factory;
  try {
    return await openDB(LOCAL_DB_NAME, LOCAL_DB_VERSION, {
      upgrade(db) {
        for (const store of LOCAL_DB_STORES) {
          if (!db.objectStoreNames.contains(store)) db.createObjectStore(store, { keyPath: 'id' });
        }
      },
    });
  } finally {
    if (factory !== undefined) (globalThis as { indexedDB: IDBFactory }).indexedDB = previous;
  }
}

let shared: Promise<IDBPDatabase> | undefined;
let alertShown = false;

/** The database of this page, opened once; a failure shows the alert once and rejects. */
export function localDb(): Promise<IDBPDatabase> {
  shared ??= openLocalDb().catch((error: unknown) => {
    shared = undefined;
    if (!alertShown && typeof window !== 'undefined' && typeof window.alert === 'function') {
      alertShown = true;
      window.alert(LOCAL_DB_FAILURE_MESSAGE);
    }
    throw error;
  });
  return shared;
}

/** Puts `data` under `id` in `store`. */
export async function putLocal<T>(store: LocalDbStore, id: string, data: T, db?: IDBPDatabase): Promise<void> {
  const database = db ?? (await localDb());
  await database.put(store, { id, data } satisfies LocalRecord<T>);
}

/** The data under `id` in `store`, or null. */
export async function getLocal<T>(store: LocalDbStore, id: string, db?: IDBPDatabase): Promise<T | null> {
  const database = db ?? (await localDb());
  const record = (await database.get(store, id)) as LocalRecord<T> | undefined;
  return record === undefined ? null : record.data;
}

/** Removes the record under `id` in `store`. */
export async function deleteLocal(store: LocalDbStore, id: string, db?: IDBPDatabase): Promise<void> {
  const database = db ?? (await localDb());
  await database.delete(store, id);
}

/** Removes every record of `store`. */
export async function clearLocal(store: LocalDbStore, db?: IDBPDatabase): Promise<void> {
  const database = db ?? (await localDb());
  await database.clear(store);
}

/** The one record of the `auth` store: who is signed in on this device, and whether a facilitator signed in (docs/sessions.md). */
export interface AuthRecord {
  id: number;
  token: string;
  facilitator?: true;
}
export const AUTH_ID = 'auth';
/** Beside the session in the `auth` store: `true` once a guest signed out on this device (kept until the account is deleted). */
export const RETURNING_ID = 'returning';
export const LANGUAGE_ID = 'language';
