import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'vite';
import { repositoryRoot } from '../support/options';

/**
 * A bare Vite + React page, the floor the web app is compared with: built in a scratch folder inside
 * the repository (so that it resolves react, react-dom and the React plugin from the same
 * node_modules), precompressed by the same script as the app (decision 0039).
 */
export async function buildHelloWorld(): Promise<{ dist: string; remove(): void }> {
  const scratch = mkdtempSync(path.join(repositoryRoot, 'bench/web/.hello-'));
  mkdirSync(path.join(scratch, 'src'));
  writeFileSync(
    path.join(scratch, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Hello</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
  );
  writeFileSync(
    path.join(scratch, 'src/main.tsx'),
    `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <h1>Hello, world</h1>
  </StrictMode>,
);
`,
  );
  const react = (await import('@vitejs/plugin-react')).default;
  await build({
    root: scratch,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: 'dist', emptyOutDir: true },
  });
  const dist = path.join(scratch, 'dist');
  execFileSync(process.execPath, [path.join(repositoryRoot, 'scripts/precompress.mjs'), dist], { stdio: 'ignore' });
  return { dist, remove: () => rmSync(scratch, { recursive: true, force: true }) };
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * Serves a built folder as Admit's server serves apps/web/dist: the brotli or gzip copy the browser
 * accepts (brotli first), hashed assets cached for a year, the page never.
 */
export async function serveStatic(dist: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    let file = path.join(dist, pathname === '/' ? 'index.html' : pathname);
    if (!file.startsWith(dist) || !existsSync(file) || statSync(file).isDirectory()) file = path.join(dist, 'index.html');
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = [
      ['br', '.br'],
      ['gzip', '.gz'],
    ].find(([name, suffix]) => accepted.includes(name!) && existsSync(file + suffix));
    response.setHeader('content-type', types[path.extname(file)] ?? 'application/octet-stream');
    response.setHeader('vary', 'Accept-Encoding');
    response.setHeader('cache-control', file.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (encoding) response.setHeader('content-encoding', encoding[0]!);
    response.end(readFileSync(encoding ? file + encoding[1] : file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
