import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { VitePWA } from 'vite-plugin-pwa';
import wasm from 'vite-plugin-wasm';
import { defineConfig } from 'vitest/config';

/** Where the Fastify server listens in development (`/api` is proxied there). */
const apiPort = process.env.PORT ?? '8080';

/** The package version, shown with the client version on /guest/show. */
const packageVersion = (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * The contact address of /guest/show and the terms page, and the terms page
 * linked from /signup: read from the environment when the client is built
 * (README, Configuration). The contact defaults to the address mail is sent
 * from; the terms default to the page shipped with the app (terms.html).
 */
const contactEmail = process.env.CONTACT_EMAIL || /<([^>]+)>/.exec(process.env.SMTP_FROM ?? '')?.[1] || process.env.SMTP_FROM || 'support@localhost';
const termsUrl = process.env.TERMS_URL || '/terms.html';

export default defineConfig({
  // index.html sits at the repository root; the build goes to dist/.
  root: '.',
  publicDir: 'public',
  define: {
    __APP_VERSION__: JSON.stringify(packageVersion),
    __CONTACT_EMAIL__: JSON.stringify(contactEmail),
    __TERMS_URL__: JSON.stringify(termsUrl),
  },
  plugins: [
    react(),
    { name: 'warden-contact-email', transformIndexHtml: (html) => html.replaceAll('%CONTACT_EMAIL%', contactEmail) },
    wasm(),
    // The installable app (SPEC §1): the manifest, the icons, and a service
    // worker that precaches the app shell so that it opens offline. The page
    // registers it on load (src/client/app/pwa.ts) and asks before updating.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
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
        // page and the wardens' console (/warden, warden.html) are pages of their
        // own, not the app.
        navigateFallbackDenylist: [/^\/api\//, /^\/dev\//, /^\/terms\.html/, /^\/warden(\/|\.html|$)/],
        cleanupOutdatedCaches: true,
      },
      devOptions: { enabled: false },
    }),
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
    rollupOptions: { input: { app: 'index.html', terms: 'terms.html', warden: 'warden.html' } },
  },
  server: {
    proxy: {
      '/api': { target: `http://localhost:${apiPort}`, changeOrigin: true },
      '/socket.io': { target: `http://localhost:${apiPort}`, ws: true },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    environment: 'node',
    // Opening and migrating a database in a suite's setup takes ~2 s alone
    // and far longer on a loaded machine; a hook gets a minute.
    hookTimeout: 60_000,
  },
});
