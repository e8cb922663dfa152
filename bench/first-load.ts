/**
 * `npm run bench:first-load`: the JavaScript (and wasm) a phone downloads on
 * a first visit, measured on the production build in Debian's Chromium with
 * an empty cache and no service worker: the first screen a visitor sees (`/`,
 * the intro) and the reservation list of a signed-in guest (`/reservations`,
 * opened directly). Every JS and wasm response is recorded and its body
 * gzipped here at level 9, so the figures do not depend on how the server
 * compresses. Prints per page the total beside its target and a table of the
 * chunks, then the two vision wasm modules of the build and the face model
 * (loaded by the camera screens' worker, not by these pages) gzipped, the
 * modules beside their target, the model with whether either page fetched it. Builds the client when
 * its sources are newer than the build (scripts/production.ts).
 *
 *   npm run bench:first-load
 *   npm run bench:first-load -- --dist dist-mine --json bench/results/first-load.json
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Response } from '@playwright/test';
import { ensureBuilt, startProduction } from '../scripts/production.ts';
import { readyGuestOver } from '../src/server/test/server-process.ts';
import { chromiumWithCamera } from '../tests/chromium.ts';
import { signInPage } from '../tests/helpers.ts';

/** KB as vite reports it: 1,000 bytes. */
const KB = 1000;

/** The targets (issue 19, "The first load"), JavaScript gzipped. */
const PAGES = [
  { name: 'first screen (/, a visitor)', path: '/', signedIn: false, targetKb: 120 },
  { name: 'reservation list (/reservations, a signed-in guest)', path: '/reservations', signedIn: true, targetKb: 150 },
] as const;

/** The vision wasm, each build gzipped (issue 19). */
const WASM_TARGET_KB = 25;

interface Chunk {
  path: string;
  kind: 'js' | 'wasm' | 'model';
  bytes: number;
  gzipBytes: number;
}

interface PageResult {
  name: string;
  targetKb: number;
  jsGzipBytes: number;
  wasmGzipBytes: number;
  chunks: Chunk[];
}

const { values: options } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    json: { type: 'string' },
  },
});

function kindOf(response: Response): Chunk['kind'] | null {
  const type = response.headers()['content-type'] ?? '';
  const path = new URL(response.url()).pathname;
  if (type.includes('wasm') || path.endsWith('.wasm')) return 'wasm';
  if (path.endsWith('.bin')) return 'model';
  if (type.includes('javascript') || /\.m?js$/.test(path)) return 'js';
  return null;
}

/** Opens `page.path` in a fresh context (empty cache) and answers every JS and wasm body it downloaded. */
async function measure(browser: Browser, baseURL: string, page: (typeof PAGES)[number], guest: { id: number; token: string }): Promise<PageResult> {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, locale: 'en-US', serviceWorkers: 'block' });
  const tab = await context.newPage();
  if (page.signedIn) {
    await signInPage(tab, guest);
  }
  const pending: Promise<Chunk | null>[] = [];
  context.on('response', (response) => {
    const kind = kindOf(response);
    if (kind === null || response.status() !== 200) return;
    pending.push(
      response.body().then((body) => ({ path: new URL(response.url()).pathname, kind, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length })),
    );
  });
  await tab.goto(page.path, { waitUntil: 'networkidle' });
  await tab.locator('h1').first().waitFor();
  if (new URL(tab.url()).pathname !== page.path) throw new Error(`${page.path} went to ${tab.url()}`);
  const chunks = (await Promise.all(pending)).filter((chunk): chunk is Chunk => chunk !== null).sort((a, b) => b.gzipBytes - a.gzipBytes);
  await context.close();
  const sum = (kind: Chunk['kind']) => chunks.filter((chunk) => chunk.kind === kind).reduce((total, chunk) => total + chunk.gzipBytes, 0);
  return { name: page.name, targetKb: page.targetKb, jsGzipBytes: sum('js'), wasmGzipBytes: sum('wasm'), chunks };
}

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

ensureBuilt(options.dist);
const server = await startProduction(options.dist);
const browser = await chromium.launch(chromiumWithCamera());
const results: PageResult[] = [];
try {
  const guest = await readyGuestOver(server.url);
  for (const page of PAGES) results.push(await measure(browser, server.url, page, guest));
} finally {
  await browser.close();
  await server.stop();
}

for (const result of results) {
  const verdict = result.jsGzipBytes <= result.targetKb * KB ? 'within' : 'OVER';
  console.log(`\n${result.name}: ${kb(result.jsGzipBytes)} of JavaScript gzipped (target ${result.targetKb} KB: ${verdict})`);
  if (result.wasmGzipBytes > 0) console.log(`  and ${kb(result.wasmGzipBytes)} of wasm gzipped`);
  console.log(`  ${'chunk'.padEnd(48)} ${'bytes'.padStart(10)} ${'gzip -9'.padStart(10)}`);
  for (const chunk of result.chunks) console.log(`  ${chunk.path.padEnd(48)} ${kb(chunk.bytes).padStart(10)} ${kb(chunk.gzipBytes).padStart(10)}`);
}
const assets = join(options.dist, 'assets');
const wasm = ['simd', 'scalar'].map((build) => {
  const name = readdirSync(assets).find((file) => file.startsWith(`vision-${build}-`) && file.endsWith('.wasm'));
  if (name === undefined) throw new Error(`no vision-${build} wasm in ${assets}`);
  const body = readFileSync(join(assets, name));
  return { build, path: `/assets/${name}`, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length };
});
console.log(`\nvision wasm (target ${WASM_TARGET_KB} KB gzipped each)`);
for (const module of wasm) {
  const verdict = module.gzipBytes <= WASM_TARGET_KB * KB ? 'within' : 'OVER';
  console.log(`  ${module.build.padEnd(7)}${module.path.padEnd(41)} ${kb(module.bytes).padStart(10)} ${kb(module.gzipBytes).padStart(10)}  ${verdict}`);
}
const modelName = readdirSync(assets).find((file) => file.startsWith('face-model-') && file.endsWith('.bin'));
if (modelName === undefined) throw new Error(`no face model in ${assets}`);
const modelBody = readFileSync(join(assets, modelName));
const model = { path: `/assets/${modelName}`, bytes: modelBody.length, gzipBytes: gzipSync(modelBody, { level: 9 }).length };
const fetchedBy = results.filter((result) => result.chunks.some((chunk) => chunk.kind === 'model')).map((result) => result.name);
console.log(`
face model (the jail's worker loads it with the wasm)`);
console.log(`  ${model.path.padEnd(48)} ${kb(model.bytes).padStart(10)} ${kb(model.gzipBytes).padStart(10)}`);
console.log(`  fetched by these pages: ${fetchedBy.length === 0 ? 'none' : `${fetchedBy.join(', ')} (it should not be)`}`);
if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify({ pages: results, wasm, model: { ...model, fetchedBy } }, null, 2)}\n`);
