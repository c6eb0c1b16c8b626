import { fieldIssuesOf } from '@admit/shared/callable';
import type { LiveRow, LiveServerMessage } from '@admit/shared/live';
import { LiveClientMessage } from '@admit/shared/live';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { SessionUser } from '../auth/auth';
import type { Database } from '../db/database';
import { CallableError, callableErrorFromDatabase } from '../http/callable-error';
import type { LiveContext, LiveQuery } from './live-query';

const channel = 'admit_changes';
/** One NOTIFY per topic per window at most (DESIGN §3.3: a NOTIFY per write cut the write rate by 4.5×). */
const coalesceWindowMs = 200;
/** NOTIFY payloads are limited to 8000 bytes. */
const maxPayloadBytes = 7900;

interface Subscription {
  id: string;
  socket: Connection;
  query: LiveQuery;
  params: unknown;
  rows: Map<string, string>;
  topics: Set<string>;
  version: number;
  running: boolean;
  dirty: boolean;
  closed: boolean;
}

/** Loads in flight by (query, params, user): identical subscriptions share one. */
type LoadMemo = Map<string, Promise<{ rows: LiveRow[]; next: Map<string, string> }>>;

interface Connection {
  socket: WebSocket;
  ctx: LiveContext;
  subscriptions: Map<string, Subscription>;
}

/**
 * Serves live queries on /live: a snapshot, then changes, whenever a topic the rows depend on is
 * published by any server instance (PostgreSQL LISTEN/NOTIFY carries the topics between them).
 */
export class LiveHub {
  private readonly queries = new Map<string, LiveQuery>();
  private readonly byTopic = new Map<string, Set<Subscription>>();
  private readonly pendingTopics = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private coolingUntil = 0;
  private unlisten: (() => Promise<void>) | undefined;
  private versionClock = 0;
  /**
   * Loads in flight that started after the latest notification (replaced on each one): such a load
   * sees every commit announced so far, so any subscription woken by it may take its rows.
   */
  private loads: LoadMemo = new Map();

  constructor(
    private readonly database: Database,
    queries: LiveQuery[],
    private readonly log: FastifyBaseLogger,
  ) {
    for (const query of queries) {
      if (this.queries.has(query.contract.name)) throw new Error(`Live query ${query.contract.name} is defined twice`);
      this.queries.set(query.contract.name, query);
    }
  }

  async start() {
    this.unlisten = await this.database.listen(channel, (payload) => this.onNotification(payload));
  }

  async stop() {
    clearTimeout(this.flushTimer);
    await this.flush();
    await this.unlisten?.();
  }

  /** Announces that rows behind these topics changed (call after the transaction committed). */
  publish(topics: string[]) {
    for (const topic of topics) this.pendingTopics.add(topic);
    if (this.flushTimer) return;
    // The first change goes out at once; later ones within the window travel together.
    const delay = Math.max(0, this.coolingUntil - Date.now());
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.coolingUntil = Date.now() + coalesceWindowMs;
      void this.flush();
    }, delay);
  }

  private async flush() {
    if (this.pendingTopics.size === 0) return;
    const topics = [...this.pendingTopics];
    this.pendingTopics.clear();
    const payloads: string[] = [];
    let current = '';
    for (const topic of topics) {
      if (current && Buffer.byteLength(current) + Buffer.byteLength(topic) + 1 > maxPayloadBytes) {
        payloads.push(current);
        current = '';
      }
      current = current ? `${current}\n${topic}` : topic;
    }
    if (current) payloads.push(current);
    for (const payload of payloads) {
      try {
        await this.database.notify(channel, payload);
      } catch (error) {
        this.log.error({ err: error }, 'live: publishing a change failed');
      }
    }
  }

  private onNotification(payload: string) {
    this.loads = new Map();
    const dirty = new Set<Subscription>();
    for (const topic of payload.split('\n')) for (const subscription of this.byTopic.get(topic) ?? []) dirty.add(subscription);
    for (const subscription of dirty) void this.refresh(subscription);
  }

  private nextVersion() {
    // Monotonic across restarts of this process: clients only compare versions for equality/order.
    this.versionClock = Math.max(this.versionClock + 1, Date.now());
    return this.versionClock;
  }

  /** Serves one WebSocket connection; `user` is the session found on the upgrade request. */
  handleConnection(socket: WebSocket, user: SessionUser | null, log: FastifyBaseLogger) {
    const connection: Connection = { socket, ctx: { db: this.database.db, user, log }, subscriptions: new Map() };
    socket.on('message', (raw) => {
      let message: LiveClientMessage;
      try {
        const parsed = LiveClientMessage.safeParse(JSON.parse(String(raw)));
        if (!parsed.success) {
          this.send(connection, {
            type: 'error',
            id: null,
            error: {
              status: 'invalid-argument',
              message: 'Not a live message',
              details: { fields: fieldIssuesOf(parsed.error) },
            },
          });
          return;
        }
        message = parsed.data;
      } catch {
        this.send(connection, { type: 'error', id: null, error: { status: 'invalid-argument', message: 'Not JSON' } });
        return;
      }
      if (message.type === 'subscribe') this.subscribe(connection, message);
      else this.unsubscribe(connection, message.id);
    });
    socket.on('close', () => {
      for (const id of connection.subscriptions.keys()) this.unsubscribe(connection, id);
    });
  }

  private subscribe(connection: Connection, message: Extract<LiveClientMessage, { type: 'subscribe' }>) {
    const fail = (error: CallableError) =>
      this.send(connection, {
        type: 'error',
        id: message.id,
        error: { status: error.code, message: error.message, details: error.details },
      });
    if (connection.subscriptions.has(message.id))
      return fail(new CallableError('already-exists', `Subscription ${message.id} exists`));
    if (connection.subscriptions.size >= 100)
      return fail(new CallableError('resource-exhausted', 'Too many subscriptions on one connection'));
    const query = this.queries.get(message.query);
    if (!query) return fail(new CallableError('not-found', `No live query named ${message.query}`));
    const params = query.contract.params.safeParse(message.params ?? {});
    if (!params.success) {
      return fail(new CallableError('invalid-argument', 'The parameters are not valid', { fields: fieldIssuesOf(params.error) }));
    }
    if (query.auth === 'required' && !connection.ctx.user)
      return fail(new CallableError('unauthenticated', 'Sign in to see this'));
    const subscription: Subscription = {
      id: message.id,
      socket: connection,
      query,
      params: params.data,
      rows: new Map(),
      topics: new Set(),
      version: 0,
      running: false,
      dirty: false,
      closed: false,
    };
    connection.subscriptions.set(message.id, subscription);
    void this.refresh(subscription);
  }

  private unsubscribe(connection: Connection, id: string) {
    const subscription = connection.subscriptions.get(id);
    if (!subscription) return;
    subscription.closed = true;
    connection.subscriptions.delete(id);
    this.setTopics(subscription, []);
  }

  private setTopics(subscription: Subscription, topics: string[]) {
    for (const topic of subscription.topics) {
      const set = this.byTopic.get(topic);
      set?.delete(subscription);
      if (set?.size === 0) this.byTopic.delete(topic);
    }
    subscription.topics = new Set(topics);
    for (const topic of subscription.topics) {
      let set = this.byTopic.get(topic);
      if (!set) this.byTopic.set(topic, (set = new Set()));
      set.add(subscription);
    }
  }

  /** Re-reads a subscription's rows and sends what changed; changes arriving meanwhile trigger one more read. */
  private async refresh(subscription: Subscription) {
    if (subscription.running) {
      subscription.dirty = true;
      return;
    }
    subscription.running = true;
    try {
      do {
        subscription.dirty = false;
        await this.load(subscription);
      } while (subscription.dirty && !subscription.closed);
    } finally {
      subscription.running = false;
    }
  }

  private async load(subscription: Subscription) {
    const { query, socket: connection } = subscription;
    let rows: LiveRow[];
    let next: Map<string, string>;
    try {
      // The rows depend on the query, its params and who asks (load checks permissions): nothing else.
      const key = `${query.contract.name}\n${JSON.stringify(subscription.params)}\n${connection.ctx.user?.id ?? ''}`;
      const loads = this.loads;
      let loading = loads.get(key);
      if (!loading) {
        loading = query.load(subscription.params, connection.ctx).then((loaded) => {
          const parsed = loaded.map((row) => query.contract.row.parse(row));
          return { rows: parsed, next: new Map(parsed.map((row) => [row.id, JSON.stringify(row)])) };
        });
        loads.set(key, loading);
        // Shared only while in flight: rows kept longer would miss what changes without a topic (now()).
        const settled = () => void (loads.get(key) === loading && loads.delete(key));
        loading.then(settled, settled);
      }
      ({ rows, next } = await loading);
    } catch (error) {
      if (subscription.closed) return;
      const known = error instanceof CallableError ? error : callableErrorFromDatabase(error);
      if (!known) connection.ctx.log.error({ err: error, query: query.contract.name }, 'live query failed');
      const reported = known ?? new CallableError('internal', 'Internal error');
      this.send(connection, {
        type: 'error',
        id: subscription.id,
        error: { status: reported.code, message: reported.message, details: reported.details },
      });
      this.unsubscribe(connection, subscription.id);
      return;
    }
    if (subscription.closed) return;
    this.setTopics(subscription, query.topics(subscription.params, rows, connection.ctx));

    if (subscription.version === 0) {
      subscription.rows = next;
      subscription.version = this.nextVersion();
      this.send(connection, { type: 'snapshot', id: subscription.id, rows, version: subscription.version });
      return;
    }
    const upserts = rows.filter((row) => subscription.rows.get(row.id) !== next.get(row.id));
    const removes = [...subscription.rows.keys()].filter((id) => !next.has(id));
    // Rows keep the query's order: when it moved (not merely grew at the end), the new order goes along.
    const previousOrder = [...subscription.rows.keys()].filter((id) => next.has(id));
    const kept = rows.filter((row) => subscription.rows.has(row.id)).map((row) => row.id);
    const appendedOnly = rows.slice(0, kept.length).every((row, index) => row.id === kept[index]);
    const reordered = !appendedOnly || previousOrder.some((id, index) => id !== kept[index]);
    subscription.rows = next;
    if (upserts.length === 0 && removes.length === 0 && !reordered) return;
    subscription.version = this.nextVersion();
    this.send(connection, {
      type: 'changes',
      id: subscription.id,
      upserts,
      removes,
      ...(reordered ? { order: rows.map((row) => row.id) } : {}),
      version: subscription.version,
    });
  }

  private send(connection: Connection, message: LiveServerMessage) {
    if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(message));
  }
}
