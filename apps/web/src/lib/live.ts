import type { CallableErrorCode } from '@admit/shared/callable';
import type { LiveQueryContract, LiveRow, LiveServerMessage } from '@admit/shared/live';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { z } from 'zod';
import { CallError } from './callable';

interface Listener {
  query: string;
  params: unknown;
  rows: LiveRow[];
  version?: number;
  onRows(rows: LiveRow[]): void;
  onError(error: CallError): void;
}

/**
 * One WebSocket per tab to /live. Subscriptions survive reconnects: on reconnect each is sent
 * again with the last version seen, and the server answers with what is current.
 */
export class LiveClient {
  private socket: WebSocket | undefined;
  private readonly listeners = new Map<string, Listener>();
  private nextId = 1;
  private retryMs = 250;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly statusListeners = new Set<(connected: boolean) => void>();
  connected = false;
  /** Set when a connection dropped or could not be made, until one opens again: the app is offline. */
  offline = false;

  constructor(private readonly url: () => string) {}

  subscribe(query: string, params: unknown, handlers: Pick<Listener, 'onRows' | 'onError'>): () => void {
    const id = `s${this.nextId++}`;
    this.listeners.set(id, { query, params, rows: [], ...handlers });
    this.ensureSocket();
    this.send({ type: 'subscribe', id, query, params });
    return () => {
      this.listeners.delete(id);
      this.send({ type: 'unsubscribe', id });
    };
  }

  onStatus(listener: (connected: boolean) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Drops the connection and opens a new one (after sign-in or sign-out, so the server sees the new session). */
  reconnect() {
    this.socket?.close();
    this.socket = undefined;
    this.setConnected(false);
    if (this.listeners.size > 0) this.ensureSocket();
  }

  private setConnected(connected: boolean, offline = false) {
    if (this.connected === connected && this.offline === offline) return;
    this.connected = connected;
    this.offline = offline;
    for (const listener of this.statusListeners) listener(connected);
  }

  private send(message: unknown) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private ensureSocket() {
    if (this.socket || typeof WebSocket === 'undefined') return;
    clearTimeout(this.retryTimer);
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.retryMs = 250;
      this.setConnected(true);
      for (const [id, listener] of this.listeners) {
        socket.send(
          JSON.stringify({ type: 'subscribe', id, query: listener.query, params: listener.params, version: listener.version }),
        );
      }
    });
    socket.addEventListener('message', (event) => this.receive(JSON.parse(String(event.data)) as LiveServerMessage));
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.setConnected(false, true);
      if (this.listeners.size === 0) return;
      this.retryTimer = setTimeout(() => this.ensureSocket(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 10_000);
    });
  }

  private receive(message: LiveServerMessage) {
    const listener = message.id === null ? undefined : this.listeners.get(message.id);
    if (!listener) return;
    if (message.type === 'error') {
      listener.onError(new CallError(message.error.status as CallableErrorCode, message.error.message, message.error.details));
      return;
    }
    if (message.type === 'snapshot') {
      listener.rows = message.rows;
    } else {
      const upserts = new Map(message.upserts.map((row) => [row.id, row]));
      const removed = new Set(message.removes);
      const kept = listener.rows.filter((row) => !removed.has(row.id)).map((row) => upserts.get(row.id) ?? row);
      const known = new Set(kept.map((row) => row.id));
      const merged = [...kept, ...message.upserts.filter((row) => !known.has(row.id))];
      if (message.order) {
        const byId = new Map(merged.map((row) => [row.id, row]));
        listener.rows = message.order.map((id) => byId.get(id)).filter((row): row is LiveRow => row !== undefined);
      } else {
        listener.rows = merged;
      }
    }
    listener.version = message.version;
    listener.onRows(listener.rows);
  }
}

export const liveClient = new LiveClient(() => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/live`);

export const liveQueryKey = (name: string, params: unknown) => ['live', name, params] as const;

/**
 * Watches a live query: rows land in the TanStack Query cache (so later issues can persist them),
 * and every change by anyone re-renders the component.
 */
export function useLiveQuery<Q extends LiveQueryContract>(
  contract: Q,
  params: z.input<Q['params']>,
  options: { enabled?: boolean } = {},
) {
  const enabled = options.enabled ?? true;
  const queryClient = useQueryClient();
  const key = liveQueryKey(contract.name, params);
  const keyHash = JSON.stringify(key);
  // An error belongs to the parameters it was answered for: new parameters start without one.
  const [failure, setFailure] = useState<{ keyHash: string; error: CallError } | null>(null);
  const error = failure?.keyHash === keyHash ? failure.error : null;

  useEffect(() => {
    if (!enabled) return;
    return liveClient.subscribe(contract.name, params, {
      onRows: (rows) => queryClient.setQueryData(key, rows),
      onError: (error) => setFailure({ keyHash, error }),
    });
    // keyHash stands for contract and params
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keyHash, enabled, queryClient]);

  const query = useQuery<z.output<Q['row']>[]>({
    queryKey: key,
    // Filled by the live channel only: never fetched.
    queryFn: () => new Promise<never>(() => {}),
    enabled: false,
    staleTime: Infinity,
  });
  return { rows: query.data, isLoading: query.data === undefined && !error, error };
}

/** Whether the live channel is connected, for an "offline" badge. */
export function useLiveConnected() {
  const [connected, setConnected] = useState(liveClient.connected);
  useEffect(() => liveClient.onStatus(setConnected), []);
  return connected;
}

/** Whether the live channel has lost its connection (or never got one) and is trying again. */
export function useLiveOffline() {
  const [offline, setOffline] = useState(liveClient.offline);
  useEffect(() => liveClient.onStatus(() => setOffline(liveClient.offline)), []);
  return offline;
}
