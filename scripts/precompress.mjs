// Writes a brotli (.br) and a gzip (.gz) copy next to every text file of a built web app that is
// worth compressing, once at build time: the server sends them to browsers that accept them
// (@fastify/static's preCompressed), so no request pays for compression.
// Usage: node scripts/precompress.mjs <dir>   (apps/web's build runs it on dist/)
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|txt|wasm)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)])),
  );
  return nested.flat();
}

/** Compresses every compressible file of `dir`; returns the bytes before and after brotli. */
export async function precompress(dir) {
  const files = (await filesUnder(dir)).filter((file) => compressible.test(file));
  let before = 0;
  let after = 0;
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(content, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
        }),
        gzipped(content, { level: 9 }),
      ]);
      // A copy is kept when it is smaller: a chunk of a few hundred bytes still loses a third, a file
      // of a few dozen gains less than the format's own header.
      await Promise.all([
        br.length < content.length && writeFile(`${file}.br`, br),
        gz.length < content.length && writeFile(`${file}.gz`, gz),
      ]);
      before += content.length;
      after += Math.min(br.length, content.length);
    }),
  );
  return { files: files.length, before, after };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) throw new Error('Usage: node scripts/precompress.mjs <dir>');
  const { before, after } = await precompress(path.resolve(dir));
  console.log(`precompressed ${dir}: ${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB with brotli`);
}
