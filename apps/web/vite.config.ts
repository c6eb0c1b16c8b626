import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  plugins: [react()],
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
