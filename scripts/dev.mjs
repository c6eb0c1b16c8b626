// `npm run dev`: the server restarting on change (tsx watch) and Vite with hot reload in front of it.
// package.json runs this with `exec`, so that npm's signals reach it and not only a shell (decision 0032).
import './check-node.mjs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const viteBin = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js');

// Node runs the tools' scripts itself: npx would put npm and a shell in between, and the shell would not
// pass a signal on. tsx watch gets a process group of its own (and so no terminal input): it kills the
// server with SIGKILL when a second signal comes before the server has exited, and Ctrl-C would otherwise
// reach it twice, from the terminal and from `stop`.
const children = [
  spawn(process.execPath, [require.resolve('tsx/cli'), 'watch', '--clear-screen=false', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  }),
  spawn(process.execPath, [viteBin, '--config', 'apps/web/vite.config.ts', 'apps/web'], { cwd: root, stdio: 'inherit' }),
];
console.log('\n  Admit dev: open http://localhost:5173 (hot reload); the API runs on http://localhost:3000\n');

let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal === 'SIGHUP' ? 'SIGTERM' : signal));
// Orphaned (npm killed outright): stop what was started rather than leave it running unseen.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop('SIGTERM');
}, 1000).unref();
for (const child of children)
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
