import react from '@vitejs/plugin-react';
import wasm from 'vite-plugin-wasm';
import { defineConfig } from 'vitest/config';

/** Where the Fastify server listens in development (`/api` is proxied there). */
const apiPort = process.env.PORT ?? '8080';

export default defineConfig({
  // index.html sits at the repository root; the build goes to dist/.
  root: '.',
  publicDir: 'public',
  plugins: [react(), wasm()],
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
  },
  server: {
    proxy: {
      '/api': { target: `http://localhost:${apiPort}`, changeOrigin: true },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    environment: 'node',
  },
});
