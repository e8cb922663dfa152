import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { availableParallelism } from 'node:os';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { Plugin, Rollup } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import wasm from 'vite-plugin-wasm';
import { defineConfig } from 'vitest/config';
import { chunkCycle, layerOf, type PageLayers, pageLayers } from './scripts/page-chunks.ts';
import { pureReactRouter } from './scripts/pure-react-router.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './src/shared/compression.ts';

/** Where the Fastify server listens in development (`/api` is proxied there). */
const apiPort = process.env.PORT ?? '8080';

/** The package version, shown with the client version on /guest/show. */
const packageVersion = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The contact address of /guest/show and the terms and privacy pages, and the terms page
 * linked from /signup: read from the environment when the client is built
 * (README, Configuration). The contact defaults to the address mail is sent
 * from; the terms default to the page shipped with the app (terms.html).
 */
const contactEmail = process.env.CONTACT_EMAIL || /<([^>]+)>/.exec(process.env.SMTP_FROM ?? '')?.[1] || process.env.SMTP_FROM || 'support@localhost';
const termsUrl = process.env.TERMS_URL || '/terms.html';

/** The outputs worth compressing: text and wasm (images and fonts are compressed already). */
const COMPRESSIBLE_OUTPUT = /\.(js|mjs|css|html|wasm|svg|json|webmanifest)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of `dir`
 * above the threshold, at the highest levels (it is done once, not per
 * request), unless the copy would not be smaller. The server sends them to
 * clients that accept them (src/server/plugins/static-files.ts).
 */
export async function precompressDirectory(dir: string): Promise<void> {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  const names = (await readdir(dir, { recursive: true })).filter((name) => COMPRESSIBLE_OUTPUT.test(name));
  await Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      if ((await stat(path)).size <= COMPRESSION_THRESHOLD_BYTES) return;
      const original = await readFile(path);
      const copies: [string, Buffer][] = [
        [
          '.br',
          await brotli(original, {
            params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: original.length },
          }),
        ],
        ['.gz', await gzipped(original, { level: zlibConstants.Z_BEST_COMPRESSION })],
      ];
      for (const [extension, compressed] of copies) if (compressed.length < original.length) await writeFile(path + extension, compressed);
    }),
  );
}

/**
 * Precompresses the build once everything else is written (the service
 * worker included); the service worker's precache globs name the originals
 * only.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'warden-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: { order: 'post', sequential: true, handler: () => precompressDirectory(outDir) },
  };
}

/** The modules whose chunks `app.html` preloads: the app's start, the API and the signed-in session (src/client/main.tsx). */
const APP_PAGE_MODULES = ['src/client/app/start.tsx', 'src/client/app/api.ts', 'src/client/app/session.ts'];

/**
 * What `home.html`, the page of the guest's home (the reservation list),
 * preloads besides: the list, its call and its texts, which the app would
 * otherwise ask for only once it runs (App.tsx, `preloadFirstScreen`).
 */
const HOME_PAGE_MODULES = [
  ...APP_PAGE_MODULES,
  'src/client/features/reservations/list/ListScreen.tsx',
  'src/client/features/reservations/api.ts',
  'src/client/features/reservations/list/texts.ts',
  'src/client/features/tryAnyway/texts.ts',
];

/**
 * Left to the bundler's own chunks: what a visitor's first screen loads
 * (main.tsx, then the intro), and the wardens' console (warden.html), which
 * shares libraries and rules with the app but not its screens.
 */
const BUNDLER_CHUNKED_MODULES = ['src/client/main.tsx', 'src/client/features/intro/IntroPage.tsx', 'src/client/warden/main.tsx'];

const moduleId = (module: string) => fileURLToPath(new URL(module, import.meta.url));

/** The layers of the current chunking, with the module info of main.tsx they were made from (the bundler reuses it within a pass). */
let pageLayersMade: { main: object; layers: PageLayers } | undefined;

/**
 * The chunk of a module of the app's pages: `shell`, what `app.html`
 * preloads beyond the first screen's, and `home`, what `home.html` adds;
 * one chunk each instead of the bundler's dozens of small ones, since each
 * costs a request (six at a time over HTTP/1.1) and compresses apart from
 * the rest. Other modules keep the bundler's chunks. The layers import each
 * other one way only (scripts/page-chunks.ts), and `pageChunks` fails the
 * build on any cycle among the chunks.
 */
function pageChunkOf(id: string, context: Rollup.ChunkingContext): string | null {
  const main = context.getModuleInfo(moduleId(BUNDLER_CHUNKED_MODULES[0] ?? ''));
  if (main === null) return null;
  if (pageLayersMade?.main !== main) {
    const layers = pageLayers(
      [
        { name: 'shell', roots: APP_PAGE_MODULES.map(moduleId) },
        { name: 'home', roots: HOME_PAGE_MODULES.map(moduleId) },
      ],
      BUNDLER_CHUNKED_MODULES.map(moduleId),
      (module) => context.getModuleInfo(module),
    );
    pageLayersMade = { main, layers };
  }
  return layerOf(pageLayersMade.layers, id);
}

/** Fails the build when chunks import each other in a cycle (see `pageChunkOf`). */
function pageChunks(): Plugin {
  return {
    name: 'warden-page-chunks',
    apply: 'build',
    generateBundle(_options, bundle) {
      const cycle = chunkCycle(Object.values(bundle).filter((output): output is Rollup.OutputChunk => output.type === 'chunk'));
      if (cycle !== null) this.error(`chunks import each other in a cycle, so a module may run before one it needs: ${cycle.join(' -> ')}`);
    },
  };
}

/** A stylesheet the build links from a page: `<link rel="stylesheet" crossorigin href="/assets/….css">`. */
const PAGE_STYLESHEET = /<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g;

/** The type of a page's stylesheet link once its sheet is inline: not CSS, so that no browser fetches it. */
const INLINED_STYLESHEET = 'text/x-inlined-css';

/**
 * The page with its stylesheets in `<style>` elements, so that its first
 * paint (the frame's header) needs the page alone, not two more round trips.
 * Each link stays, so that the loader of the app's chunks (Vite's preload
 * helper) sees the sheet is there and does not fetch it; a type no browser
 * styles with keeps the browser from fetching it (Chromium 150 fetches a
 * link that is only `disabled`), and `disabled` from applying it if one did.
 */
function withStylesInline(html: string, bundle: Rollup.OutputBundle): string {
  return html.replace(PAGE_STYLESHEET, (link: string, fileName: string) => {
    const sheet = bundle[fileName];
    if (sheet?.type !== 'asset') return link;
    return `<style>${String(sheet.source).trim()}</style>${link.replace('>', ` type="${INLINED_STYLESHEET}" disabled>`)}`;
  });
}

/**
 * Writes the app's pages beside `index.html`: `app.html` for the app's
 * addresses and `home.html` for the guest's home (src/server/app.ts,
 * `clientPage`). Each is index.html that also fetches the chunks of its
 * modules (and their styles, without waiting for them to paint) beside the
 * page's own instead of one round trip after them, or two for the home's.
 */
function appPages(): Plugin {
  return {
    name: 'warden-app-pages',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      index.source = withStylesInline(String(index.source), bundle);
      const chunks = Object.values(bundle).filter((output): output is Rollup.OutputChunk => output.type === 'chunk');
      /** `chunk` and the chunks it imports statically, file names in `into`. */
      const collect = (chunk: Rollup.OutputChunk | undefined, into: Set<string>): void => {
        if (chunk === undefined || into.has(chunk.fileName)) return;
        into.add(chunk.fileName);
        for (const name of chunk.imports) {
          const imported = bundle[name];
          if (imported?.type === 'chunk') collect(imported, into);
        }
      };
      const loadedByIndex = new Set<string>();
      collect(
        chunks.find((chunk) => chunk.isEntry && chunk.moduleIds.some((id) => id.endsWith('src/client/main.tsx'))),
        loadedByIndex,
      );
      const stylesOf = (files: Iterable<string>) => [...files].flatMap((file) => [...((bundle[file] as Rollup.OutputChunk).viteMetadata?.importedCss ?? [])]);
      const stylesOfIndex = new Set(stylesOf(loadedByIndex));
      const page = (fileName: string, modules: readonly string[]) => {
        const preloaded = new Set<string>();
        for (const module of modules) {
          const chunk = chunks.find((candidate) => candidate.moduleIds.some((id) => id.endsWith(module)));
          if (chunk === undefined) this.error(`${fileName}: no chunk for ${module}`);
          collect(chunk, preloaded);
        }
        const scripts = [...preloaded].filter((file) => !loadedByIndex.has(file));
        const styles = new Set(stylesOf(scripts).filter((file) => !stylesOfIndex.has(file)));
        const links = [
          ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
          ...[...styles].map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
        ].join('');
        this.emitFile({ type: 'asset', fileName, source: String(index.source).replace('</head>', `${links}</head>`) });
      };
      page('app.html', APP_PAGE_MODULES);
      page('home.html', HOME_PAGE_MODULES);
    },
  };
}

/** The service worker's file, written by vite-plugin-pwa and registered by the page (src/client/app/pwa.ts). */
const SERVICE_WORKER = 'sw.js';

export default defineConfig({
  // index.html sits at the repository root; the build goes to dist/.
  root: '.',
  publicDir: 'public',
  define: {
    __APP_VERSION__: JSON.stringify(packageVersion),
    __CONTACT_EMAIL__: JSON.stringify(contactEmail),
    __TERMS_URL__: JSON.stringify(termsUrl),
    __SERVICE_WORKER_URL__: JSON.stringify(`/${SERVICE_WORKER}`),
  },
  resolve: {
    alias: [
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: fileURLToPath(new URL('./src/client/app/syncExternalStore.ts', import.meta.url)) },
    ],
  },
  plugins: [
    pureReactRouter(),
    react(),
    { name: 'warden-contact-email', transformIndexHtml: (html) => html.replaceAll('%CONTACT_EMAIL%', contactEmail) },
    wasm(),
    // The installable app (docs/client.md, pwa.ts): the manifest, the icons, and a service
    // worker that precaches the app shell so that it opens offline. The page
    // registers it on load (src/client/app/pwa.ts, with the platform's API, so
    // the plugin's registerSW and workbox-window are not used) and asks before updating.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      filename: SERVICE_WORKER,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Warden',
        short_name: 'Warden',
        description: 'Book timed work sessions, and Warden keeps you at them.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#f5f7fa',
        theme_color: '#1f2933',
        icons: [
          { src: '/pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/maskable-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,wasm,webmanifest}'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        navigateFallback: '/index.html',
        // The API and the development routes never come from the cache; the terms
        // and privacy pages and the wardens' console (/warden, warden.html) are
        // pages of their own, not the app.
        navigateFallbackDenylist: [/^\/api\//, /^\/dev\//, /^\/calendar\//, /^\/terms\.html/, /^\/privacy\.html/, /^\/warden(\/|\.html|$)/],
        cleanupOutdatedCaches: true,
        // Reminders: the push and the tap on its notification (public/reminders-sw.js).
        importScripts: ['/reminders-sw.js'],
      },
      devOptions: { enabled: false },
    }),
    appPages(),
    pageChunks(),
    precompress(),
  ],
  worker: {
    // The camera worker is an ES module worker that instantiates the wasm.
    format: 'es',
    plugins: () => [wasm()],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Top-level await in the worker (vite-plugin-wasm) needs an ES2022 target.
    target: 'es2022',
    rollupOptions: {
      input: { app: 'index.html', terms: 'terms.html', privacy: 'privacy.html', warden: 'warden.html' },
      // A layer's modules come without their imports: those are in earlier layers or the first screen's chunks.
      output: { codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: pageChunkOf }] } },
    },
  },
  server: {
    proxy: {
      '/api': { target: `http://localhost:${apiPort}`, changeOrigin: true },
      '/socket.io': { target: `http://localhost:${apiPort}`, ws: true },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    // One migrated PGlite database that each server suite's in-memory database starts from.
    globalSetup: ['src/server/test/pglite-template.ts'],
    // Vitest's default on a 2-core machine is one file at a time; the server's
    // suites wait on databases and child processes about as much as they
    // compute, so two at once finish the pass in about two-thirds of the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Worker threads, not child processes: each file's imports load faster in a thread, and the
    // whole pass took 357 s instead of 422 s on a quiet 2-core machine (docs/gates.md).
    pool: 'threads',
    // The files of a thread share its modules instead of importing them again for each file: the
    // pass took 261 s instead of 344 s (imports 13 s instead of 110 s). What a file changes in its
    // process (globals, environment variables, timers) it puts back itself (docs/gates.md).
    isolate: false,
    // Opening and migrating a database in a suite's setup takes ~2 s alone
    // and far longer on a loaded machine; a hook gets a minute.
    hookTimeout: 60_000,
  },
});
