import type { ContractRef } from '@admit/shared/contract-ref';
import type { LiveQueryContract, LiveRow, LiveServerMessage } from '@admit/shared/live';
import { replaceEqualDeep, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState } from 'react';
import type { z } from 'zod';
import { callErrorOf, type CallError } from './callable';

/** The close code of a socket the server stopped serving because it did not keep up (docs/contracts.md). */
const tryAgainLater = 1013;

interface Listener {
  query: string;
  params: unknown;
  rows: LiveRow[];
  /** Where each row is in `rows`, by id (built when a change first needs it). */
  positions?: Map<string, number>;
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
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.setConnected(false, true);
      if (this.listeners.size === 0) return;
      // 1013 "Try Again Later": the server let this socket go because it fell too far behind
      // (a slow network); coming straight back would ask for the same snapshot at once.
      const wait = event.code === tryAgainLater ? Math.max(this.retryMs, 5_000) : this.retryMs;
      this.retryTimer = setTimeout(() => this.ensureSocket(), wait);
      this.retryMs = Math.min(wait * 2, 10_000);
    });
  }

  private receive(message: LiveServerMessage) {
    const listener = message.id === null ? undefined : this.listeners.get(message.id);
    if (!listener) return;
    if (message.type === 'error') {
      listener.onError(callErrorOf({ error: message.error }, 0));
      return;
    }
    if (message.type === 'snapshot') {
      listener.rows = message.rows;
      listener.positions = undefined;
    } else {
      applyChange(listener, message);
    }
    listener.version = message.version;
    listener.onRows(listener.rows);
  }
}

/**
 * A change to a subscription's rows, in place of a new list built row by row: a door's list holds
 * 10,000 attendees and one admission changes one of them. Unchanged rows stay the same objects.
 */
export function applyChange(
  listener: { rows: LiveRow[]; positions?: Map<string, number> },
  change: Extract<LiveServerMessage, { type: 'changes' }>,
) {
  let rows: LiveRow[];
  if (change.removes.length > 0) {
    const removed = new Set(change.removes);
    rows = listener.rows.filter((row) => !removed.has(row.id));
    listener.positions = undefined;
  } else {
    rows = listener.rows.slice();
  }
  const positions = (listener.positions ??= new Map(rows.map((row, index) => [row.id, index])));
  for (const row of change.upserts) {
    const at = positions.get(row.id);
    if (at === undefined) {
      positions.set(row.id, rows.length);
      rows.push(row);
    } else {
      rows[at] = row;
    }
  }
  if (change.order) {
    const byId = new Map(rows.map((row) => [row.id, row]));
    rows = change.order.map((id) => byId.get(id)).filter((row): row is LiveRow => row !== undefined);
    listener.positions = undefined;
  }
  listener.rows = rows;
}

/**
 * TanStack Query's structural sharing for live rows, by id rather than by position: a row equal to
 * the one with its id before stays that object, also when rows moved (a new scan on top of the log)
 * or came again in a snapshot (after a reconnect). Components memoized by row, and the offline
 * cache (which writes only the chunks whose rows changed), rely on it.
 */
export function shareLiveRows(before: unknown, after: unknown): unknown {
  if (!Array.isArray(before) || !Array.isArray(after)) return replaceEqualDeep(before, after);
  const previous = before as LiveRow[];
  let byId: Map<string, LiveRow> | undefined;
  let unchanged = previous.length === after.length;
  const rows = (after as LiveRow[]).map((row, index) => {
    let old = previous[index];
    if (old === row) return row;
    if (old?.id !== row.id) {
      byId ??= new Map(previous.map((one) => [one.id, one]));
      old = byId.get(row.id);
    }
    const shared = old === undefined ? row : (replaceEqualDeep(old, row) as LiveRow);
    if (shared !== previous[index]) unchanged = false;
    return shared;
  });
  return unchanged ? before : rows;
}

export const liveClient = new LiveClient(() => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/live`);

export const liveQueryKey = (name: string, params: unknown) => ['live', name, params] as const;

/** A live query a page asked for, by name and parameters. */
export interface LiveQueryAsked {
  query: string;
  params: unknown;
}

/**
 * On the server only: where the first view of a public page (entry-server.tsx) notes the live
 * queries it asked for and has no rows of yet, by their cache key; the server reads them and draws
 * the page again with their rows.
 */
export const FirstViewAsked = createContext<Map<string, LiveQueryAsked> | null>(null);

/**
 * Watches a live query, by its contract or a reference to it by name (`@admit/shared/contract-ref`):
 * rows land in the TanStack Query cache (which lib/offline-cache.ts keeps),
 * and every change by anyone re-renders the component.
 */
export function useLiveQuery<Q extends LiveQueryContract>(
  contract: Q | ContractRef<Q>,
  params: z.input<Q['params']>,
  /** `attempt`: a new number subscribes again with the same params (after a refusal, "try again"). */
  options: { enabled?: boolean; attempt?: number } = {},
) {
  const enabled = options.enabled ?? true;
  const queryClient = useQueryClient();
  const key = liveQueryKey(contract.name, params);
  const keyHash = JSON.stringify([key, options.attempt ?? 0]);
  // An error belongs to the parameters it was answered for: new parameters start without one.
  const [failure, setFailure] = useState<{ keyHash: string; error: CallError } | null>(null);
  const error = failure?.keyHash === keyHash ? failure.error : null;

  useEffect(() => {
    if (!enabled) return;
    return liveClient.subscribe(contract.name, params, {
      onRows: (rows) => {
        queryClient.setQueryData(key, rows);
        // Rows after a refusal (a subscription made again): the refusal is over.
        setFailure((before) => (before?.keyHash === keyHash ? null : before));
      },
      onError: (error) => setFailure({ keyHash, error }),
    });
    // keyHash stands for contract, params and attempt
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keyHash, enabled, queryClient]);

  const query = useQuery<z.output<Q['row']>[]>({
    queryKey: key,
    // Filled by the live channel only: never fetched.
    queryFn: () => new Promise<never>(() => {}),
    enabled: false,
    staleTime: Infinity,
    structuralSharing: shareLiveRows,
  });
  const asked = useContext(FirstViewAsked);
  if (import.meta.env.SSR && asked && enabled && query.data === undefined)
    asked.set(JSON.stringify(key), { query: contract.name, params });
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
