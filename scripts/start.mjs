// `npm start`: installs what is missing, builds the vision wasm and the
// client, then runs the server on PORT (default 8080) serving dist/.

import { spawn } from 'node:child_process';
import { ROOT, bin, ensureFaceCascade, ensureNodeModules, ensureWasmToolchain, runOrExit, step } from './ensure.mjs';
import { buildWasm } from './build-wasm.mjs';

ensureNodeModules();
ensureWasmToolchain();
ensureFaceCascade();

step('Building the vision wasm');
try {
  buildWasm();
} catch (error) {
  console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

step('Building the client (vite build)');
// Always the production build: under NODE_ENV=development vite would bundle
// React's development build, which is never what the server should serve.
runOrExit(bin('vite'), ['build'], { env: { ...process.env, NODE_ENV: 'production' } });

const port = process.env.PORT || '8080';
step(`Starting the server on port ${port}`);
// tsx runs the TypeScript server in this same Node (node --import tsx), so
// signals reach it directly.
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, PORT: port },
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => server.kill(signal));
}
// `npm start` runs this through a shell that does not pass on a SIGTERM sent
// to npm: when our parent goes away, stop the server rather than keep the port.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) server.kill('SIGTERM');
}, 1000).unref();
server.on('exit', (code, signal) => {
  process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
});
