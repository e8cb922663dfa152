import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { getLocal, openLocalDb, putLocal } from '../../app/localDb.ts';
import { livePathOnceListed, TRY_ENTRY_ID, tryEntryOf } from './try-entry.ts';

describe('the stored try-anyway entry', () => {
  it('is read back only when it is an entry with an offered duration', () => {
    expect(tryEntryOf({ work: 'Tidy the desk', duration: 1.25 })).toEqual({ work: 'Tidy the desk', duration: 1.25 });
    expect(tryEntryOf({ work: '', duration: 8 })).toEqual({ work: '', duration: 8 });
    for (const stored of [
      null,
      undefined,
      'x',
      ['a'],
      { work: 'a' },
      { work: 'a', duration: 0.5 },
      { work: 'a', duration: 1.1 },
      { work: 3, duration: 1 },
      { work: 'a'.repeat(201), duration: 1 },
    ]) {
      expect(tryEntryOf(stored), JSON.stringify(stored)).toBeNull();
    }
  });

  it('lives under its reserved id beside the remembered works, which stay as they were', async () => {
    const db = await openLocalDb(new IDBFactory());
    await putLocal('rememberedWorks', 'list', ['Write the report'], db);
    await putLocal('rememberedWorks', TRY_ENTRY_ID, { work: 'Tidy', duration: 1 }, db);
    expect(await getLocal('rememberedWorks', 'list', db)).toEqual(['Write the report']);
    expect(tryEntryOf(await getLocal('rememberedWorks', TRY_ENTRY_ID, db))).toEqual({ work: 'Tidy', duration: 1 });
    db.close();
  });
});

describe('the way to the live screen', () => {
  it('opens once the new jail is in the list, with the demo hash', () => {
    expect(livePathOnceListed([{ id: 1 }], null)).toBeNull();
    expect(livePathOnceListed([{ id: 1 }], 2)).toBeNull();
    expect(livePathOnceListed([{ id: 1 }, { id: 2 }], 2)).toBe('/jail/live/2#try');
  });
});
