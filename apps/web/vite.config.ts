import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compiledMessages } from './compiled-messages.ts';

const api = `http://localhost:${process.env.PORT ?? 3000}`;
const release = process.env.ADMIT_RELEASE?.replace(/[^\w.+-]/g, '');

/**
 * The screens that must open with no network even if never opened before on this device: the app
 * shell and the public pages (the entry chunk), My tickets, the scanner, and what they load lazily.
 * Every other chunk is cached when first used (decision 0042).
 */
const offlineScreens = [
  /src\/features\/tickets\/my-tickets-page\.tsx$/,
  /src\/features\/tickets\/order-ticket-holders\.tsx$/,
  /src\/features\/checkin\/scanner-page\.tsx$/,
  /src\/features\/checkin\/camera-scanner\.tsx$/,
  /src\/features\/checkout\/ticket-picker\.tsx$/,
  // The offline cache and the scans waiting for the network load as the app starts (app/offline.ts).
  /src\/app\/(more-styles|account-menu|offline)\.ts/,
  /src\/features\/account\/(display-name|account-language)\.tsx$/,
  // Who is signed in (lib/session.ts loads Better Auth's client) and an error's sentence: both load
  // lazily on every screen (decision 0050).
  /src\/lib\/(auth-client|error-message)\.ts$/,
  /@mantine\/notifications\/esm\/index\.mjs$/,
];

/** The built files of the entry and of `offlineScreens`, with everything they import statically and their CSS. */
function offlineShell(): Plugin & { files: Set<string> } {
  const files = new Set<string>();
  return {
    name: 'admit:offline-shell',
    apply: 'build',
    files,
    generateBundle(_options, bundle) {
      files.clear();
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const add = (fileName: string) => {
        if (files.has(fileName)) return;
        files.add(fileName);
        const chunk = byName.get(fileName);
        if (!chunk) return;
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
        for (const asset of chunk.viteMetadata?.importedAssets ?? []) files.add(asset);
        chunk.imports.forEach(add);
      };
      for (const chunk of chunks) {
        if (chunk.isEntry || chunk.moduleIds.some((id) => offlineScreens.some((screen) => screen.test(id)))) add(chunk.fileName);
      }
    },
  };
}

const shell = offlineShell();

export default defineConfig(({ isSsrBuild }) => ({
  // The server's build (entry-server.tsx, the first view of public pages) needs neither the service
  // worker nor the offline list; the browser's build writes the manifest the server reads to send a
  // page's styles with its first view.
  plugins: [
    react(),
    // …and in every script's name: a release's chunks all have names of their own
    // (e2e/new-build.test.ts builds a next release this way).
    ...(release ? [{ name: 'admit:release', augmentChunkHash: () => release } satisfies Plugin] : []),
    ...compiledMessages(),
    ...(isSsrBuild
      ? []
      : [
          shell,
          // The app shell (HTML, scripts, styles, message catalogs) cached by a service worker, so that a
          // reload with no network opens the app; the data comes from the offline cache (lib/offline-cache).
          VitePWA({
            registerType: 'autoUpdate',
            injectRegister: 'script-defer',
            // Installable on a phone's home screen, so the door opens the scanner like an app. The icons are
            // drawn from favicon.svg by scripts/make-icons.mjs; the colours are the theme's indigo on white.
            manifest: {
              id: '/',
              name: 'Admit',
              short_name: 'Admit',
              description: 'Tickets for events and check-in at the door.',
              lang: 'en',
              start_url: '/',
              scope: '/',
              display: 'standalone',
              theme_color: '#4c6ef5',
              background_color: '#ffffff',
              icons: [
                { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
                { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
                { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
              ],
            },
            workbox: {
              globPatterns: ['**/*.{js,css,html,svg,png}'],
              // Of the built chunks, only the offline screens' (`offlineShell`); the page, icons and the
              // service worker's registration are outside assets/ and always kept.
              manifestTransforms: [
                (entries) => ({
                  manifest: entries.filter((entry) => !entry.url.startsWith('assets/') || shell.files.has(entry.url)),
                  warnings: [],
                }),
              ],
              maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
              // The Japanese and Arabic fonts come in a few hundred files by Unicode range (8 MB in all):
              // kept once a page has used them, never fetched ahead.
              runtimeCaching: [
                // The other screens' chunks and the other languages' catalogs, kept once used. Their names
                // change with their content, so a kept one never goes stale. The page puts there too what
                // it loaded before the worker took control (lib/keep-loaded-assets.ts).
                {
                  urlPattern: ({ url }) => url.pathname.startsWith('/assets/') && /\.(js|css)$/.test(url.pathname),
                  handler: 'CacheFirst',
                  options: { cacheName: 'admit-assets', expiration: { maxEntries: 200 } },
                },
                {
                  urlPattern: ({ url }) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.woff2'),
                  handler: 'CacheFirst',
                  options: { cacheName: 'admit-fonts', expiration: { maxEntries: 300 } },
                },
              ],
              // Client-side routes open the cached app; the server's own paths never do.
              navigateFallback: '/index.html',
              // The embedded checkout comes from the server, with the frame-ancestors of its event (decision 0061).
              navigateFallbackDenylist: [/^\/(api|fn|live|files|webhooks|dev|a|embed)(\/|$)/, /^\/healthz$/],
              cleanupOutdatedCaches: true,
              // The first visit is served by the worker at once, so it is ready before the network goes.
              clientsClaim: true,
              skipWaiting: true,
            },
          }),
        ]),
  ],
  // The server's build holds all it uses, React included, in the build's own mode (production
  // unless NODE_ENV says otherwise, as for the journeys): the server runs with NODE_ENV unset by
  // default, which would give it React's development build, several times slower.
  ssr: { noExternal: true },
  // Every message comes parsed (compiled-messages.ts): react-intl's formatter without its parser.
  resolve: {
    alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
  },
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV ?? 'production') } : {},
  server: {
    port: 5173,
    // `npm run dev`: the API, live socket and dev outbox stay on the Admit server.
    proxy: {
      '/fn': api,
      '/api': api,
      '/dev': api,
      '/healthz': api,
      '/live': { target: api.replace('http', 'ws'), ws: true },
    },
  },
  build: isSsrBuild
    ? { sourcemap: true }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: true,
        manifest: true,
        // What the entry imports statically, all of which a page loads before it draws, in one chunk
        // rather than some twenty-five small ones the lazy chunks share: fewer requests on a slow
        // network, and 8 KB less once compressed, as one file compresses better than many (decision 0050).
        rolldownOptions: {
          output: {
            codeSplitting: { groups: [{ name: 'first-load', tags: ['$initial'] }] },
            // A release's name (ADMIT_RELEASE) at the top of every script, when the deploy gives one:
            // which release a chunk came from.
            ...(release ? { banner: `/* Admit ${release} */` } : {}),
          },
        },
        // That one chunk is some 520 KB before compression, over Vite's 500 KB warning: its size is
        // watched by bench/web (gzip) and what goes in it by src/initial-chunk.test.ts.
        chunkSizeWarningLimit: 600,
      },
}));
