import { once } from 'node:events';
import { callableErrorCodeOf } from '@admit/shared/callable';
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
      // Read as the browser reads it: the wire's status name as its code, with the details.
      if (message.type === 'error')
        reject(Object.assign(new Error(callableErrorCodeOf(message.error.status)), { details: message.error.details }));
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

/**
 * A /live socket that records every message and how it closed, for tests that wait on either
 * (`expect.poll(() => live.closed()?.code)`). With `headers`, the upgrade request carries them as
 * a browser's (a session cookie) or an API client's (a bearer token) would.
 */
export async function openLive(baseUrl: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers });
  const messages: LiveServerMessage[] = [];
  let closed: { code: number; reason: string } | null = null;
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as LiveServerMessage));
  socket.on('close', (code, reason) => (closed = { code, reason: String(reason) }));
  await once(socket, 'open');
  return {
    socket,
    messages,
    closed: () => closed,
    subscribe(id: string, query: string, params: unknown = {}) {
      socket.send(JSON.stringify({ type: 'subscribe', id, query, params }));
    },
    /** The first message about subscription `id` of this type, once it has come. */
    find<T extends LiveServerMessage['type']>(id: string, type: T) {
      return messages.find(
        (message): message is Extract<LiveServerMessage, { type: T }> => message.type === type && message.id === id,
      );
    },
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      const done = once(socket, 'close');
      socket.close();
      await done;
    },
  };
}
