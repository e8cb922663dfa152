import { rmSync } from 'node:fs';

/** Removes the run's temporary data directory (playwright.config.ts). */
export default function globalTeardown(): void {
  const dir = process.env.WARDEN_E2E_DATA_DIR;
  if (dir?.includes('warden-e2e-')) rmSync(dir, { recursive: true, force: true });
}
