import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveAssets, keptBuilds } from '../../../scripts/build-web.mjs';
import { cacheControlOf } from './web-app';
import { createTestApp, type TestApp } from './testing/test-app';

// The built web app as the server sends it: compressed once at build time (scripts/precompress.mjs,
// run here on a folder shaped like apps/web/dist), chosen by the browser's Accept-Encoding, and
// cached as long as its name allows.

let t: TestApp;
/** The folder apps/web stands for: the browser build (dist) and the earlier builds' assets (dist-archive). */
let web: string;
let dist: string;
const script = `${'console.log("Admit");'.repeat(400)}\n`;
/** A chunk of a few hundred bytes, as the bundler splits off a helper two screens share. */
const smallChunk = `export function formatMoney(locale, cents, currency) {\n  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);\n}\nexport const zero = formatMoney('en', 0, 'EUR');\n`;

beforeAll(async () => {
  web = mkdtempSync(path.join(tmpdir(), 'admit-web-'));
  dist = path.join(web, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>Admit</title>${'<!-- padding -->'.repeat(100)}`);
  writeFileSync(path.join(dist, 'assets', 'index-Bx1y2z3A.js'), script);
  writeFileSync(path.join(dist, 'sw.js'), `self.addEventListener('fetch', () => {});${' '.repeat(2_000)}`);
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'assets', 'money-Cq2w3e4R.js'), smallChunk);
  const built = spawnSync(process.execPath, ['scripts/precompress.mjs', dist], { encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  t = await createTestApp({ webDistDir: dist });
});
afterAll(async () => {
  await t?.close();
  rmSync(web, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the web app’s files', () => {
  it('are compressed at build time, a small chunk too, and a file is left alone when compressing does not make it smaller', () => {
    expect(brotliDecompressSync(readFileSync(path.join(dist, 'assets', 'index-Bx1y2z3A.js.br'))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(path.join(dist, 'assets', 'index-Bx1y2z3A.js.gz'))).toString()).toBe(script);
    const small = readFileSync(path.join(dist, 'assets', 'money-Cq2w3e4R.js.gz'));
    expect(gunzipSync(small).toString()).toBe(smallChunk);
    expect(small.length).toBeLessThan(smallChunk.length);
    expect(() => readFileSync(path.join(dist, 'favicon.svg.br'))).toThrow();
    expect(() => readFileSync(path.join(dist, 'favicon.svg.gz'))).toThrow();
  });

  it('go out in brotli to a browser that takes it, in gzip to one that takes only that, and plain otherwise', async () => {
    const br = await get('/assets/index-Bx1y2z3A.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const gz = await get('/assets/index-Bx1y2z3A.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-Bx1y2z3A.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('are kept a year when their name is hashed, and never kept without asking for the page and the service worker', async () => {
    expect((await get('/assets/index-Bx1y2z3A.js', 'br')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/sw.js', 'br')).headers['cache-control']).toBe('no-cache');
    expect((await get('/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
    const page = await get('/e/some-event', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toContain('<title>Admit</title>');
  });

  it('name their cache time by the file, whichever copy is sent', () => {
    expect(cacheControlOf('assets/x-1.css.gz')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlOf('index.html.br')).toBe('no-cache');
    expect(cacheControlOf('manifest.webmanifest')).toBe('no-cache');
    expect(cacheControlOf('icon-192.png')).toBe('public, max-age=3600');
  });
});

describe('the hashed assets of earlier builds', () => {
  const oldChunk = `export const screen = 'from the build before';\n${'// padding\n'.repeat(50)}`;
  const day = 24 * 60 * 60 * 1000;

  it('are still sent, compressed and kept a year, to a page opened before a new build replaced them', async () => {
    writeFileSync(path.join(dist, 'assets', 'orders-OLD1hash.js'), oldChunk);
    spawnSync(process.execPath, ['scripts/precompress.mjs', dist]);
    // The next build: the current assets go to the archive, then the build empties assets/.
    archiveAssets(dist, path.join(web, 'dist-archive'));
    for (const suffix of ['', '.br', '.gz']) rmSync(path.join(dist, 'assets', `orders-OLD1hash.js${suffix}`));

    const old = await get('/assets/orders-OLD1hash.js', 'br');
    expect(old.statusCode).toBe(200);
    expect(old.headers['content-encoding']).toBe('br');
    expect(old.headers['content-type']).toMatch(/javascript/);
    expect(old.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(old.rawPayload).toString()).toBe(oldChunk);
    // The current build's own still come from dist, one with no compressed copy too, and a name no
    // build had is still not found.
    expect((await get('/assets/index-Bx1y2z3A.js')).body).toBe(script);
    writeFileSync(path.join(dist, 'assets', 'tiny-Dd3e4f5G.js'), 'export{};');
    const tiny = await get('/assets/tiny-Dd3e4f5G.js', 'gzip, deflate, br');
    expect([tiny.statusCode, tiny.body, tiny.headers['cache-control']]).toEqual([
      200,
      'export{};',
      'public, max-age=31536000, immutable',
    ]);
    expect((await get('/assets/..%2F..%2Fpackage.json')).statusCode).toBe(404);
    const unknown = await get('/assets/nothing-XXXXXXXX.js');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/json/);
  });

  it('are kept a week after a newer build replaced them, and for the last builds whatever their age, then removed', () => {
    const site = mkdtempSync(path.join(tmpdir(), 'admit-archive-'));
    try {
      const out = path.join(site, 'dist');
      const archive = path.join(site, 'dist-archive');
      const build = (name: string, at: number) => {
        rmSync(path.join(out, 'assets'), { recursive: true, force: true });
        mkdirSync(path.join(out, 'assets'), { recursive: true });
        writeFileSync(path.join(out, 'assets', `${name}.js`), name);
        writeFileSync(path.join(out, 'assets', `${name}.js.map`), '{}');
        writeFileSync(path.join(out, 'assets', 'shared-SAME.js'), 'shared');
        return archiveAssets(out, archive, at);
      };
      const start = Date.parse('2026-11-01T12:00:00Z');
      build('first', start);
      const archived = () => new Set(readdirSync(path.join(archive, 'assets')));
      expect(archived()).toEqual(new Set(['first.js', 'shared-SAME.js']));

      // Six days later and more builds than the count: the first is within its week, so kept.
      for (let n = 1; n <= keptBuilds; n++) build(`next${n}`, start + 6 * day + n);
      expect(archived().has('first.js')).toBe(true);
      // Past its week and not among the last builds: removed; the others, in their week, and what a kept build lists stay.
      const result = build('late', start + 8 * day);
      expect(archived().has('first.js')).toBe(false);
      expect(archived().has('shared-SAME.js')).toBe(true);
      expect(result.builds).toBe(keptBuilds + 1);
      // A month of quiet: the last builds are kept whatever their age.
      build('quiet', start + 40 * day);
      expect(archived().has('late.js')).toBe(true);
      expect([...archived()].some((file) => file.endsWith('.map'))).toBe(false);
      expect(existsSync(path.join(out, 'assets', 'quiet.js'))).toBe(true);
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });
});
