// Builds the web app when apps/web/dist (or dist-server) is missing or older than any of its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/shared/src',
  'package-lock.json',
];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

export function buildWebIfNeeded() {
  // The browser's build and the server's (the first view of public pages, decision 0049): the older counts.
  const built = [path.join(root, 'apps/web/dist/index.html'), path.join(root, 'apps/web/dist-server/entry-server.js')];
  const builtAt = Math.min(...built.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  const changedAt = Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
  if (builtAt > changedAt) return;
  console.log(builtAt ? 'The web app changed: building it…' : 'Building the web app (first start)…');
  const result = spawnSync('npm', ['run', 'build', '-w', '@admit/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('Building the web app failed.');
    process.exit(result.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildWebIfNeeded();
