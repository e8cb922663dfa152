import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is src/server/config.ts). */
export const ROOT_DIR = fileURLToPath(new URL('../../', import.meta.url));

export interface Config {
  /** TCP port (`PORT`, default 8080). */
  port: number;
  /** Interface to listen on (`HOST`, default 0.0.0.0). */
  host: string;
  /** Where the server keeps its data (`DATA_DIR`, default `.data/`), absolute. */
  dataDir: string;
  /** The public origin the app is reached at (`PUBLIC_URL`), when known. */
  publicUrl: string | null;
  /** The built client (`vite build` output), absolute. */
  distDir: string;
  /** The release version, from package.json. */
  version: string;
}

function readVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(resolve(ROOT_DIR, 'package.json'), 'utf8'));
  if (typeof manifest === 'object' && manifest !== null && 'version' in manifest && typeof manifest.version === 'string') {
    return manifest.version;
  }
  return '0.0.0';
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 8080;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, not ${JSON.stringify(value)}`);
  }
  return port;
}

function parsePublicUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute URL, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`PUBLIC_URL must be http or https, not ${JSON.stringify(value)}`);
  }
  return url.origin;
}

/** Reads the configuration from the environment; throws a readable error on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = env.DATA_DIR === undefined || env.DATA_DIR === '' ? '.data/' : env.DATA_DIR;
  return {
    port: parsePort(env.PORT),
    host: env.HOST === undefined || env.HOST === '' ? '0.0.0.0' : env.HOST,
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(ROOT_DIR, dataDir),
    publicUrl: parsePublicUrl(env.PUBLIC_URL),
    distDir: resolve(ROOT_DIR, 'dist'),
    version: readVersion(),
  };
}
