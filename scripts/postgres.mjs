// A private, temporary PostgreSQL server for the server suite's second run
// (`npm test`). It is Debian's `postgresql` (installed through apt-get when
// missing and run as root), initialised in a temporary directory, listening
// on 127.0.0.1 on a free port and on a socket in that directory, with a
// generated password. PostgreSQL refuses to run as root, so as root it runs
// as the `postgres` user the Debian package creates (`runuser -u postgres`);
// as anyone else it runs as that user. Only node: built-ins.

import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { aptInstall, capture } from './ensure.mjs';

/** The directory of initdb, pg_ctl and postgres, or null when PostgreSQL is not installed. */
export function postgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(root, versions[0], 'bin');
  }
  const onPath = capture('sh', ['-c', 'command -v initdb']);
  return onPath === null ? null : onPath.replace(/\/initdb$/, '');
}

/** Installs Debian's PostgreSQL server when it is missing. */
export function ensurePostgres() {
  if (postgresBinDir() !== null) return;
  aptInstall(['postgresql'], 'PostgreSQL is missing (the server suite also runs on it)');
  if (postgresBinDir() === null) {
    console.error('\n✖ initdb is still missing after installing postgresql');
    process.exit(1);
  }
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function freePort() {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  const port = capture(process.execPath, ['-e', script]);
  if (port === null) throw new Error('could not find a free port');
  return Number(port);
}

/**
 * Starts the server; returns its admin URL (a superuser, database `postgres`)
 * and `stop()`, which also runs when this process exits.
 */
export function startTemporaryPostgres() {
  const bin = postgresBinDir();
  if (bin === null) throw new Error('PostgreSQL is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'warden-pg-'));
  const dataDir = join(dir, 'data');
  const socketDir = join(dir, 'socket');
  mkdirSync(socketDir);
  const password = randomBytes(16).toString('hex');
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, `${password}\n`);
  chmodSync(passwordFile, 0o600);

  // As root, the files belong to postgres and every command runs as postgres.
  const asUser = isRoot() ? ['runuser', '-u', 'postgres', '--'] : [];
  if (isRoot()) {
    const chown = spawnSync('chown', ['-R', 'postgres:postgres', dir], { stdio: 'inherit' });
    if (chown.status !== 0) throw new Error('chown to the postgres user failed (is the postgresql package installed?)');
  }
  const runPg = (command, args) => {
    const [program, ...rest] = [...asUser, join(bin, command), ...args];
    const result = spawnSync(program, rest, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) {
      throw new Error(`${command} failed: ${result.error?.message ?? ''}${result.stdout ?? ''}${result.stderr ?? ''}`);
    }
  };

  runPg('initdb', ['-D', dataDir, '-U', 'warden', `--pwfile=${passwordFile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-sync']);
  const port = freePort();
  // A throwaway test server: durability settings off for speed.
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  runPg('pg_ctl', ['-D', dataDir, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start']);

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    const [program, ...rest] = [...asUser, join(bin, 'pg_ctl'), '-D', dataDir, '-m', 'immediate', '-w', 'stop'];
    spawnSync(program, rest, { stdio: 'ignore', cwd: dir });
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', stop);
  return { url: `postgres://warden:${password}@127.0.0.1:${port}/postgres`, stop };
}
