import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` writes a migration for a schema change; the
// server applies the migrations at start (src/server/db/database.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/*.ts',
  out: './src/server/db/migrations',
});
