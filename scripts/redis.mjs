// A private, temporary Redis server for the tests that run several server
// processes (`npm test`, the server suite's PostgreSQL pass). It is Debian's
// `redis-server` (installed through apt-get when missing), started on
// 127.0.0.1 on a free port in a temporary directory, without persistence.
// Only node: built-ins.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aptInstall, capture } from './ensure.mjs';

/** The path of redis-server, or null when it is not installed. */
export function redisServerPath() {
  return capture('sh', ['-c', 'command -v redis-server']);
}

/** Installs Debian's redis-server when it is missing. */
export function ensureRedis() {
  if (redisServerPath() !== null) return;
  aptInstall(['redis-server'], 'Redis is missing (the two-server relay test runs on it)');
  if (redisServerPath() === null) {
    console.error('\n✖ redis-server is still missing after installing redis-server');
    process.exit(1);
  }
}

function freePort() {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  const port = capture(process.execPath, ['-e', script]);
  if (port === null) throw new Error('could not find a free port');
  return Number(port);
}

/** Whether a Redis server answers PING on the port (inline command, `+PONG`). */
function answersPing(port) {
  const script = `const s=require('net').createConnection(${port},'127.0.0.1');let d='';s.setTimeout(500,()=>process.exit(1));s.on('error',()=>process.exit(1));s.on('data',(c)=>{d+=c;if(d.includes('+PONG')){s.end();process.exit(0)}});s.on('connect',()=>s.write('PING\\r\\n'))`;
  return spawnSync(process.execPath, ['-e', script], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts the server and waits until it answers PING; returns its URL and
 * `stop()`, which also runs when this process exits.
 */
export function startTemporaryRedis() {
  const server = redisServerPath();
  if (server === null) throw new Error('redis-server is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'warden-redis-'));
  const port = freePort();
  const child = spawn(
    server,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', join(dir, 'redis.log'), '--daemonize', 'no'],
    { stdio: 'ignore' },
  );
  // The child keeps no handle on this process's event loop: tests exit when they are done.
  child.unref();

  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', stop);

  const deadline = Date.now() + 15_000;
  while (!answersPing(port)) {
    // The loop is synchronous (as the callers are), so an early exit shows only as silence until the deadline.
    if (Date.now() > deadline) {
      const log = capture('cat', [join(dir, 'redis.log')]) ?? '';
      stop();
      throw new Error(`redis-server did not answer PING on port ${port}${log ? `:\n${log}` : ''}`);
    }
    spawnSync('sleep', ['0.1']);
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}
