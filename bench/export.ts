/**
 * `npm run bench:export`: what the export of a large account costs the
 * server. A guest with 2,000 finished jails of 200 activity logs each (about
 * five and a half years of daily jails, 400,000 logs) and 300 kept patrol images is
 * exported over real HTTP on 127.0.0.1; the archive goes to a file as it
 * arrives. Printed: the time, the archive's and warden.json's sizes, and the
 * process's resident memory at its highest during the export above what it
 * was before. Target: the export streams, so its memory stays far below the
 * size of what it writes (docs/privacy.md, Export): a peak under 64 MB
 * above the start for a warden.json of more than 40 MB.
 *
 * The database is in-memory PGlite, or the PostgreSQL server of
 * DATABASE_URL (the bench's guest is deleted from it afterwards).
 */

import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { eq, inArray } from 'drizzle-orm';
import { open as openZip } from 'yauzl';
import { benchApp, listenOnLoopback } from './server-in-process.ts';
import { activityLogs, guests, jails } from '../src/server/db/schema/index.ts';
import { jpegDataUrl } from '../src/server/test/full-account.ts';
import { insertPastJails, type PastJail } from '../src/server/test/jail-history.ts';

const JAILS = 2_000;
const LOGS_PER_JAIL = 200;
const PATROL_IMAGES = 300;
const TARGET_PEAK_MB = 64;
const TARGET_MIN_JSON_MB = 40;
const INSERT_BATCH = 5_000;
const DAY_MS = 86_400_000;
const MB = 1024 * 1024;

/** The uncompressed size of each file of a ZIP on disk, from its central directory. */
function entrySizes(path: string): Promise<Map<string, number>> {
  return new Promise((resolve, reject) => {
    openZip(path, { lazyEntries: true }, (error, zip) => {
      if (error !== null) return reject(error);
      const sizes = new Map<string, number>();
      zip.on('entry', (entry: { fileName: string; uncompressedSize: number }) => {
        sizes.set(entry.fileName, entry.uncompressedSize);
        zip.readEntry();
      });
      zip.on('end', () => resolve(sizes));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function main(): Promise<void> {
  const { app, database } = await benchApp();
  const appUrl = await listenOnLoopback(app);
  const now = app.clock.now();
  const name = `export${now.toString(36)}`;
  const directory = await mkdtemp(join(tmpdir(), 'warden-export-bench-'));
  let guestId: number | null = null;
  try {
    const seedStarted = performance.now();
    const signUp = await app.inject({
      method: 'POST',
      url: '/api/guest/create',
      payload: {
        api: { language: 'en' },
        guest: { title: name, email: `${name}@example.com`, password: `bench-password-${name}`, timezone: -540, language: 'en' },
      },
    });
    const guest = signUp.json<{ guest?: { id: number; token: string } }>().guest;
    if (guest === undefined) throw new Error(`sign-up answered ${signUp.body}`);
    guestId = guest.id;
    const past: PastJail[] = Array.from({ length: JAILS }, (_, index) => ({
      startTime: Math.floor(now / DAY_MS) * DAY_MS - (index + 1) * DAY_MS + 3_600_000,
      durationMinutes: 120,
      finish: 'ended',
      focusedMs: 100 * 60_000,
      work: `Chapter ${index} of the long thesis`,
    }));
    const reservationIds = await insertPastJails(app.db, guest.id, '+09:00', past);
    // The last week's jails still keep their patrol images (the purge takes the older ones'): the export carries them as files.
    const recent = reservationIds.slice(0, 6);
    await app.db.update(jails).set({ patrolsPurgedAt: null }).where(inArray(jails.reservationId, recent));
    const logs = reservationIds.flatMap((reservationId, jail) =>
      Array.from({ length: LOGS_PER_JAIL }, (_, index) => {
        const time = (past[jail]?.startTime ?? now) + index * 30_000;
        return index % 2 === 0
          ? { reservationId, time, entry: { type: 'motion' as const, time, motion: { type: 1 as const, kind: 'motion' as const } } }
          : {
              reservationId,
              time,
              entry: { type: 'dialog' as const, time, dialog: { type: 1 as const, text: `Keep going: the next section is only a few pages away (${index}).` } },
            };
      }),
    );
    for (let index = 0; index < logs.length; index += INSERT_BATCH) await app.db.insert(activityLogs).values(logs.slice(index, index + INSERT_BATCH));
    const images = Array.from({ length: PATROL_IMAGES }, (_, index) => {
      const reservationId = recent[index % recent.length] ?? 0;
      return { reservationId, time: now - index, entry: { type: 'patrol' as const, time: now - index, patrol: { data: jpegDataUrl().dataUrl } } };
    });
    await app.db.insert(activityLogs).values(images);
    console.log(
      `export of a guest with ${JAILS} jails, ${JAILS * LOGS_PER_JAIL} activity logs and ${PATROL_IMAGES} patrol images` +
        ` (seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s); database: ${database}`,
    );

    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const archivePath = join(directory, 'warden.zip');
    const started = performance.now();
    const response = await fetch(`${appUrl}/api/guest/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api: { language: 'en' }, guest }),
    });
    if (response.headers.get('content-type') !== 'application/zip' || response.body === null) throw new Error(`export answered ${await response.text()}`);
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(archivePath));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    const sizes = await entrySizes(archivePath);
    const jsonMb = (sizes.get('warden.json') ?? 0) / MB;
    const archiveMb = (await stat(archivePath)).size / MB;
    const imageFiles = [...sizes.keys()].filter((path) => path.startsWith('patrols/')).length;
    const peakMb = (peak - rssBefore) / MB;
    console.log(`\n${'measured'.padEnd(44)}${'value'.padStart(12)}${'target'.padStart(14)}`);
    const rows: [string, string, string][] = [
      ['time to export', `${seconds.toFixed(2)} s`, ''],
      ['archive (ZIP) size', `${archiveMb.toFixed(1)} MB`, ''],
      ['warden.json, uncompressed', `${jsonMb.toFixed(1)} MB`, `> ${TARGET_MIN_JSON_MB} MB`],
      ['patrol image files', String(imageFiles), String(PATROL_IMAGES)],
      ['peak resident memory above the start', `${peakMb.toFixed(1)} MB`, `< ${TARGET_PEAK_MB} MB`],
    ];
    for (const [label, value, target] of rows) console.log(`${label.padEnd(44)}${value.padStart(12)}${target.padStart(14)}`);
    const holds = peakMb < TARGET_PEAK_MB && jsonMb > TARGET_MIN_JSON_MB && imageFiles === PATROL_IMAGES;
    console.log(`\n${holds ? 'target holds' : 'TARGET MISSED'}: the export streams; its memory is not the size of what it writes.`);
  } finally {
    if (guestId !== null) await app.db.delete(guests).where(eq(guests.id, guestId));
    await rm(directory, { recursive: true, force: true });
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
