import { once } from 'node:events';
import type { LiveServerMessage } from '@admit/shared/live';
import WebSocket from 'ws';

/** Subscribes to a live query over the real socket and keeps its rows current. */
export async function watch(baseUrl: string, query: string, params: unknown, cookie?: string) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers: cookie ? { cookie } : {} });
  await once(socket, 'open');
  // Rows are whatever the query sends; the tests read the fields they care about.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let rows: any[] = [];
  const snapshot = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as LiveServerMessage;
      if (message.type === 'error') reject(new Error(message.error.status));
      if (message.type === 'snapshot') {
        rows = message.rows;
        resolve();
      }
      if (message.type === 'changes') {
        // As the browser's client applies them (apps/web/src/lib/live.ts): new rows added, and the
        // server's order when it sends one.
        const upserts = new Map(message.upserts.map((row) => [row.id, row]));
        const kept = rows.filter((row) => !message.removes.includes(row.id)).map((row) => upserts.get(row.id) ?? row);
        const known = new Set(kept.map((row) => row.id));
        const merged = [...kept, ...message.upserts.filter((row) => !known.has(row.id))];
        const byId = new Map(merged.map((row) => [row.id, row]));
        rows = message.order ? message.order.map((id) => byId.get(id)).filter((row) => row !== undefined) : merged;
      }
    });
  });
  socket.send(JSON.stringify({ type: 'subscribe', id: 's1', query, params }));
  await snapshot;
  return { rows: () => rows, close: () => socket.close() };
}
