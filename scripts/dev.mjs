// `npm run dev`: the server restarting on change (tsx watch) and Vite with hot reload in front of it.
import './check-node.mjs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'apps/server/src/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn('npx', ['vite', '--config', 'apps/web/vite.config.ts', 'apps/web'], { cwd: root, stdio: 'inherit' }),
];
console.log('\n  Admit dev: open http://localhost:5173 (hot reload); the API runs on http://localhost:3000\n');
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
