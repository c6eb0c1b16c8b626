// The listeners of bench/live-fanout, in a process of their own (forked by run.ts): 1,000 browsers'
// worth of /live sockets, each subscribed to the availability of one event, stamping every change
// as it arrives. Apart from the writer, so that receiving 1,000 messages does not delay the
// writer's own stamps (and the writer's HTTP does not delay these).
import WebSocket from 'ws';
import { now, type ListenerCommand, type ListenerReply } from './protocol';

interface Listener {
  socket: WebSocket;
  /** The ticket type's remaining places as this listener holds them, and when each value arrived. */
  remaining: number[];
  at: number[];
  current: number;
}

let listeners: Listener[] = [];
let errors: string[] = [];
let messages = 0;
let target = -Infinity;
let reached = 0;
let onReached: (() => void) | undefined;

function reply(message: ListenerReply) {
  process.send!(message);
}

function observe(listener: Listener, remaining: number, at: number) {
  const before = listener.current;
  listener.current = remaining;
  listener.remaining.push(remaining);
  listener.at.push(at);
  if (before > target && remaining <= target && ++reached === listeners.length) onReached?.();
}

async function openOne(url: string, eventId: string, ticketTypeId: string): Promise<Listener> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/live`);
  const listener: Listener = { socket, remaining: [], at: [], current: Infinity };
  const snapshot = new Promise<void>((resolve, reject) => {
    socket.on('message', (data) => {
      const at = now();
      messages++;
      const message = JSON.parse(String(data)) as {
        type: string;
        rows?: { id: string; remaining: number }[];
        upserts?: { id: string; remaining: number }[];
        error?: unknown;
      };
      const row = (message.rows ?? message.upserts)?.find((candidate) => candidate.id === ticketTypeId);
      if (message.type === 'snapshot' && row) {
        listener.current = row.remaining;
        resolve();
      } else if (message.type === 'changes' && row) observe(listener, row.remaining, at);
      else if (message.type === 'error') {
        if (errors.length < 5) errors.push(JSON.stringify(message.error));
        reject(new Error(JSON.stringify(message.error)));
      }
    });
    socket.on('error', reject);
  });
  socket.on('close', () => {
    if (listeners.includes(listener) && errors.length < 5) errors.push('a socket closed during the run');
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ type: 'subscribe', id: 'availability', query: 'events.availability', params: { eventId } }));
  await snapshot;
  return listener;
}

async function open(command: Extract<ListenerCommand, { type: 'open' }>) {
  const started = now();
  const opened: Listener[] = [];
  // In batches: 1,000 upgrades at once would measure the accept queue, not live queries.
  for (let start = 0; start < command.count; start += command.batch) {
    const batch = Math.min(command.batch, command.count - start);
    opened.push(
      ...(await Promise.all(Array.from({ length: batch }, () => openOne(command.url, command.eventId, command.ticketTypeId)))),
    );
  }
  listeners = opened;
  target = -Infinity;
  reached = 0;
  reply({ type: 'opened', ms: now() - started, remaining: [...new Set(opened.map((listener) => listener.current))] });
}

function waitRemaining(atMost: number, timeoutMs: number) {
  target = atMost;
  reached = listeners.filter((listener) => listener.current <= atMost).length;
  const done = () => {
    clearTimeout(timer);
    onReached = undefined;
    reply({ type: 'reached', count: reached });
  };
  const timer = setTimeout(done, timeoutMs);
  onReached = done;
  if (reached === listeners.length) done();
}

async function close() {
  const closing = listeners;
  listeners = [];
  await Promise.all(
    closing.map(
      (listener) =>
        new Promise<void>((resolve) => {
          if (listener.socket.readyState === WebSocket.CLOSED) return resolve();
          listener.socket.once('close', () => resolve());
          listener.socket.close();
        }),
    ),
  );
  reply({ type: 'closed' });
}

process.on('message', (command: ListenerCommand) => {
  switch (command.type) {
    case 'open':
      open(command).catch((error: unknown) => reply({ type: 'failed', error: String(error) }));
      break;
    case 'waitRemaining':
      waitRemaining(command.atMost, command.timeoutMs);
      break;
    case 'collect':
      reply({
        type: 'collected',
        receipts: listeners.map((listener) => ({ remaining: listener.remaining, at: listener.at })),
        messages,
        errors,
      });
      for (const listener of listeners) {
        listener.remaining = [];
        listener.at = [];
      }
      messages = 0;
      errors = [];
      break;
    case 'close':
      void close();
      break;
  }
});
