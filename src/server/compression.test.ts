import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../vite.config.ts';
import { COMPRESSION_THRESHOLD_BYTES } from '../shared/compression.ts';
import { apiBlock, bookJail, credentials, readyGuest, startTestServer, type TestServer } from './test/harness.ts';

/**
 * Compression as a browser meets it: the build's precompressed copies of the
 * client (made by the build step itself, in a directory of its own), served
 * by encoding with their cache headers, and API answers compressed above the
 * threshold.
 */

/** A script of a real bundle's kind: repetitive text, well above the threshold. */
const SCRIPT = Array.from({ length: 400 }, (_, index) => `export const label${index} = t("screen.label.${index}", { count: ${index} });`).join('\n');
const SMALL_SCRIPT = 'console.log("warden");';
const INDEX_HTML = '<!doctype html><title>Warden</title><div id="root"></div>';
const WARDEN_HTML = `<!doctype html><title>Warden console</title>${'<link rel="modulepreload" href="/assets/console-abc123.js">'.repeat(40)}<div id="root"></div>`;
/** A wasm module's header followed by a compressible body. */
const WASM = Buffer.concat([Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]), Buffer.alloc(4096, 7)]);
/** Noise, as a PNG's compressed data is: nothing to gain. */
const PNG = randomBytes(4096);

let dist: string;
let server: TestServer;

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'warden-dist-'));
  await mkdir(join(dist, 'assets'));
  await writeFile(join(dist, 'index.html'), INDEX_HTML);
  await writeFile(join(dist, 'warden.html'), WARDEN_HTML);
  await writeFile(join(dist, 'sw.js'), SCRIPT);
  await writeFile(join(dist, 'assets', 'app-abc123.js'), SCRIPT);
  await writeFile(join(dist, 'assets', 'small-abc123.js'), SMALL_SCRIPT);
  await writeFile(join(dist, 'assets', 'vision-abc123.wasm'), WASM);
  await writeFile(join(dist, 'assets', 'icon-abc123.png'), PNG);
  await precompressDirectory(dist);
  server = await startTestServer({ distDir: dist });
});

afterAll(async () => {
  await server.close();
  await rm(dist, { recursive: true, force: true });
});

function get(url: string, acceptEncoding?: string): Promise<LightMyRequestResponse> {
  return server.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
}

describe('the build step', () => {
  it('writes Brotli and gzip copies beside the compressible files above the threshold only', async () => {
    expect(SCRIPT.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    expect((await readdir(dist, { recursive: true })).filter((name) => /\.(br|gz)$/.test(name)).sort()).toEqual([
      'assets/app-abc123.js.br',
      'assets/app-abc123.js.gz',
      'assets/vision-abc123.wasm.br',
      'assets/vision-abc123.wasm.gz',
      'sw.js.br',
      'sw.js.gz',
      'warden.html.br',
      'warden.html.gz',
    ]);
    expect(brotliDecompressSync(await readFile(join(dist, 'assets', 'app-abc123.js.br'))).toString()).toBe(SCRIPT);
    expect(gunzipSync(await readFile(join(dist, 'assets', 'app-abc123.js.gz'))).toString()).toBe(SCRIPT);
  });
});

describe('the built client', () => {
  it('sends a hashed script in Brotli to a client that accepts it, immutable, varying on Accept-Encoding', async () => {
    const response = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends it in gzip to a client that accepts only gzip', async () => {
    const response = await get('/assets/app-abc123.js', 'gzip');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file itself without Accept-Encoding, or when the client refuses both', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const response = await get('/assets/app-abc123.js', acceptEncoding);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.body).toBe(SCRIPT);
    }
  });

  it('sends the vision module compressed as application/wasm', async () => {
    const response = await get('/assets/vision-abc123.wasm', 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('application/wasm');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).equals(WASM)).toBe(true);
  });

  it('keeps the service worker revalidated on every load, compressed', async () => {
    const response = await get('/sw.js', 'br');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it("sends the console's page compressed as the single-page-app fallback of its routes", async () => {
    const response = await get('/warden/jails', 'br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(WARDEN_HTML);
    expect(gunzipSync((await get('/warden/jails', 'gzip')).rawPayload).toString()).toBe(WARDEN_HTML);
  });

  it('compresses per request what the build left alone (the app page, a small script), and sends images as they are', async () => {
    const page = await get('/reservations', 'br, gzip');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX_HTML);
    const small = await get('/assets/small-abc123.js', 'gzip');
    expect(small.headers['content-encoding']).toBe('gzip');
    expect(small.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(small.rawPayload).toString()).toBe(SMALL_SCRIPT);
    const image = await get('/assets/icon-abc123.png', 'br, gzip');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);
  });
});

describe('API answers', () => {
  it('compresses an answer above the threshold, and leaves a small one as it is', async () => {
    const guest = await readyGuest(server.app);
    for (const hoursAhead of [2, 4, 6, 8]) await bookJail(server.app, guest, hoursAhead);
    const body = { api: apiBlock(), guest: credentials(guest) };
    const plain = await server.app.inject({ method: 'POST', url: '/api/reservation/read_list', payload: body });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toMatchObject({ api: { status: 'success' } });
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    for (const [encoding, decompress] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await server.app.inject({ method: 'POST', url: '/api/reservation/read_list', payload: body, headers: { 'accept-encoding': encoding } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(JSON.parse(decompress(response.rawPayload).toString())).toEqual(plain.json());
    }
    const health = await get('/api/health', 'br, gzip');
    expect(health.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(health.headers['content-encoding']).toBeUndefined();
  });
});
