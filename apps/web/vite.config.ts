import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [
    react(),
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
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        // The Japanese and Arabic fonts come in a few hundred files by Unicode range (8 MB in all):
        // kept once a page has used them, never fetched ahead.
        runtimeCaching: [
          {
            urlPattern: ({ url }) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.woff2'),
            handler: 'CacheFirst',
            options: { cacheName: 'admit-fonts', expiration: { maxEntries: 300 } },
          },
        ],
        // Client-side routes open the cached app; the server's own paths never do.
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/(api|fn|live|files|webhooks|dev|a)(\/|$)/, /^\/healthz$/],
        cleanupOutdatedCaches: true,
        // The first visit is served by the worker at once, so it is ready before the network goes.
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
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
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
