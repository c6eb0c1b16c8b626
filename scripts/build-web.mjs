// Builds the web app: the browser's build (dist), the server's (dist-server, the first view of
// public pages, decision 0049), their compressed copies, and first keeps the previous build's
// hashed assets in dist-archive, which the server also serves (decision 0058): a page opened on an
// earlier build, or a process behind the load balancer still on it, asks for chunks whose names the
// new build no longer has.
// Usage: node scripts/build-web.mjs [--out-dir <dir>]   (default apps/web/dist; the server build
// goes next to it in dist-server, the archive in dist-archive). `npm run build` runs it.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'apps/web');

/** An archived build's assets are kept this long after a newer build replaced it… */
export const keptForMs = 7 * 24 * 60 * 60 * 1000;
/** …and the last this many builds' whatever their age (a quiet week must not lose the last one). */
export const keptBuilds = 5;

/** Where the server build and the archive of a browser build in `outDir` go. */
export function buildDirsOf(outDir) {
  const parent = path.dirname(outDir);
  return { serverDir: path.join(parent, 'dist-server'), archiveDir: path.join(parent, 'dist-archive') };
}

/**
 * Puts the hashed assets of the build in `outDir` (if any) into `archiveDir/assets`, linked rather
 * than copied where the disk allows, records when they stopped being current, and removes the
 * archived files no kept build lists. Source maps stay behind: no page asks for them.
 */
export function archiveAssets(outDir, archiveDir, now = Date.now()) {
  const assetsDir = path.join(outDir, 'assets');
  const archivedDir = path.join(archiveDir, 'assets');
  const recordFile = path.join(archiveDir, 'builds.json');
  /** @type {{ archivedAt: string; files: string[] }[]} */
  let builds = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, 'utf8')) : [];
  if (existsSync(assetsDir)) {
    const files = readdirSync(assetsDir).filter((file) => !file.endsWith('.map'));
    mkdirSync(archivedDir, { recursive: true });
    for (const file of files) {
      const target = path.join(archivedDir, file);
      if (existsSync(target)) continue;
      try {
        linkSync(path.join(assetsDir, file), target);
      } catch {
        copyFileSync(path.join(assetsDir, file), target);
      }
    }
    builds.push({ archivedAt: new Date(now).toISOString(), files });
  }
  builds = builds.filter((build, index) => index >= builds.length - keptBuilds || now - Date.parse(build.archivedAt) < keptForMs);
  const kept = new Set(builds.flatMap((build) => build.files));
  let removed = 0;
  if (existsSync(archivedDir))
    for (const file of readdirSync(archivedDir))
      if (!kept.has(file)) {
        rmSync(path.join(archivedDir, file));
        removed++;
      }
  if (builds.length || existsSync(archiveDir)) {
    mkdirSync(archiveDir, { recursive: true });
    writeFileSync(recordFile, `${JSON.stringify(builds, null, 1)}\n`);
  }
  return { builds: builds.length, files: kept.size, removed };
}

/** The name by which the server tells a browser build from another: its manifest's hash. */
export function buildIdOf(outDir) {
  const manifest = path.join(outDir, '.vite', 'manifest.json');
  return existsSync(manifest) ? createHash('sha256').update(readFileSync(manifest)).digest('hex').slice(0, 16) : null;
}

function vite(args) {
  const result = spawnSync('npx', ['vite', ...args], { cwd: webDir, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * embed.js, the loader other sites' pages include (apps/web/src/embed/embed.ts, decision 0061): one
 * small script of its own, outside the app's chunks, under a name that does not change.
 */
export async function buildEmbed(outDir) {
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: webDir,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: false,
      copyPublicDir: false,
      target: 'es2022',
      minify: true,
      lib: { entry: path.join(webDir, 'src/embed/embed.ts'), formats: ['iife'], name: 'admitEmbed', fileName: () => 'embed.js' },
    },
  });
}

export async function buildWeb(outDir = path.join(webDir, 'dist')) {
  const { serverDir, archiveDir } = buildDirsOf(outDir);
  const archived = archiveAssets(outDir, archiveDir);
  if (archived.builds)
    console.log(
      `kept the assets of ${archived.builds} earlier build(s) in ${path.relative(root, archiveDir) || archiveDir} (${archived.removed} removed)`,
    );
  vite(['build', '--outDir', outDir, '--emptyOutDir']);
  vite(['build', '--ssr', 'src/entry-server.tsx', '--outDir', serverDir, '--emptyOutDir']);
  await buildEmbed(outDir);
  const { before, after } = await precompress(outDir);
  console.log(
    `precompressed ${path.relative(root, outDir) || outDir}: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB with brotli`,
  );
  // Written last: the server draws a first view only with the server build of the browser build it serves.
  writeFileSync(path.join(serverDir, 'client-build.json'), `${JSON.stringify({ id: buildIdOf(outDir) })}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out-dir');
  await buildWeb(at > 0 ? path.resolve(process.argv[at + 1]) : undefined);
}
