import { callableErrorBody, fieldIssuesOf } from '@admit/shared/callable';
import type { LiveServerMessage } from '@admit/shared/live';
import { LiveClientMessage } from '@admit/shared/live';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { session as sessionTable } from '../auth/schema';
import type { Database } from '../db/database';
import { CallableError, callableErrorFromDatabase } from '../http/callable-error';
import { SocketAdmission, type LiveLimits } from './live-limits';
import type { LiveContext, LiveQuery } from './live-query';
import { ChangeAnnouncer, changesChannel } from './change-announcer';
import { liveCloseCodes, type Connection, type LiveSession, type Subscription } from './live-connections';
import { addToSet, removeFromSet } from '../set-index';
import { SharedChanges, rowsJson, type Outcome } from './shared-changes';
import { SharedLoads, type LoadedRows } from './shared-loads';
import { addChange, splitTopic, topicWithKeys, type TopicChanges } from './topic-keys';

export { liveCloseCodes, type LiveSession } from './live-connections';

/**
 * `session:<id>` when a session row is deleted, `user:<id>` when a person's membership is removed or
 * their role changes: sent by database triggers (drizzle/0009_live-access-ended.sql), so every
 * instance hears it whichever instance (or Better Auth path) made the change. See decision 0029.
 */
const accessChannel = 'admit_access';

/**
 * Serves live queries on /live: a snapshot, then changes, whenever a topic the rows depend on is
 * published by any server instance (PostgreSQL LISTEN/NOTIFY carries the topics between them).
 * Longer than most files on purpose: sockets, their subscriptions and the reads they share are one
 * piece of state, and splitting the class would spread it; what stands apart is in its own files
 * (change-announcer.ts, row-changes.ts, topic-keys.ts, live-limits.ts, shared-loads.ts,
 * shared-changes.ts).
 */
export class LiveHub {
  private readonly queries = new Map<string, LiveQuery>();
  private readonly byTopic = new Map<string, Set<Subscription>>();
  private readonly announcer: ChangeAnnouncer;
  private unlisten: (() => Promise<void>) | undefined;
  private versionClock = 0;
  private readonly loads = new SharedLoads();
  private readonly changes = new SharedChanges();
  private readonly bySession = new Map<string, Set<Connection>>();
  private readonly byUser = new Map<string, Set<Connection>>();
  private readonly admission: SocketAdmission;

  constructor(
    private readonly database: Database,
    queries: LiveQuery[],
    private readonly log: FastifyBaseLogger,
    private readonly limits: LiveLimits,
    /** What every live query may read besides the caller: the configuration (order links' secret). */
    private readonly shared: Pick<LiveContext, 'config'> = {},
  ) {
    for (const query of queries) {
      if (this.queries.has(query.contract.name)) throw new Error(`Live query ${query.contract.name} is defined twice`);
      this.queries.set(query.contract.name, query);
    }
    this.admission = new SocketAdmission(limits);
    this.announcer = new ChangeAnnouncer(database, log);
  }

  async start() {
    const unlistenChanges = await this.database.listen(changesChannel, (payload) => this.onNotification(payload));
    const unlistenAccess = await this.database.listen(accessChannel, (payload) => this.onAccessChanged(payload));
    this.unlisten = async () => {
      await unlistenChanges();
      await unlistenAccess();
    };
  }

  /**
   * Counts a socket about to be opened against the limits of its client address and account;
   * `release` once it has ended. Refused: the reason, for the 429 that answers the upgrade.
   */
  admit(address: string, userId: string | null) {
    const admission = this.admission.admit(address, userId);
    if ('refused' in admission) this.refusedSockets++;
    return admission;
  }

  async stop() {
    await this.announcer.stop();
    await this.unlisten?.();
  }

  /** Announces that rows behind these topics changed (call after the transaction committed). */
  publish(topics: string[]) {
    this.announcer.publish(topics);
  }

  private onNotification(payload: string) {
    this.loads.renew();
    const changesOf = new Map<Subscription, TopicChanges>();
    for (const published of payload.split('\n')) {
      const { topic } = splitTopic(published);
      for (const subscription of this.byTopic.get(topic) ?? []) {
        let changes = changesOf.get(subscription);
        if (!changes) changesOf.set(subscription, (changes = new Map()));
        addChange(changes, published);
      }
    }
    for (const [subscription, changes] of changesOf) void this.refresh(subscription, changes);
  }

  /** A session ended or a person's roles changed, on any instance (see accessChannel). */
  private onAccessChanged(payload: string) {
    const separator = payload.indexOf(':');
    const [kind, id] = [payload.slice(0, separator), payload.slice(separator + 1)];
    if (kind === 'session') {
      for (const connection of [...(this.bySession.get(id) ?? [])])
        this.close(connection, liveCloseCodes.sessionEnded, 'The session has ended');
    } else if (kind === 'user') {
      const connections = this.byUser.get(id);
      if (!connections) return;
      // Loads in flight began before the change: none may be shared with the reads it asks for.
      this.loads.renew();
      // Every read checks permissions again: what the person may no longer see ends with an error,
      // what a new role shows differently arrives as changes. Their other subscriptions stay.
      for (const connection of connections)
        for (const subscription of connection.subscriptions.values()) void this.refresh(subscription);
    }
  }

  private nextVersion() {
    // Monotonic across restarts of this process: clients only compare versions for equality/order.
    this.versionClock = Math.max(this.versionClock + 1, Date.now());
    return this.versionClock;
  }

  /** Serves one WebSocket connection; `session` is the one found on the upgrade request. */
  handleConnection(socket: WebSocket, session: LiveSession | null, clientAddress: string, log: FastifyBaseLogger) {
    const connection: Connection = {
      socket,
      ctx: { db: this.database.db, user: session?.user ?? null, clientAddress, log, ...this.shared },
      sessionId: session?.id ?? null,
      subscriptions: new Map(),
      closed: false,
      largestMessageBytes: 0,
    };
    this.connections.add(connection);
    if (session) {
      addToSet(this.bySession, session.id, connection);
      addToSet(this.byUser, session.user.id, connection);
      void this.confirmSession(connection, session.id);
    }
    socket.on('message', (raw) => {
      if (connection.closed) return;
      let message: LiveClientMessage;
      try {
        const parsed = LiveClientMessage.safeParse(JSON.parse(String(raw)));
        if (!parsed.success) {
          this.send(connection, {
            type: 'error',
            id: null,
            ...callableErrorBody('invalid-argument', 'Not a live message', { fields: fieldIssuesOf(parsed.error) }),
          });
          return;
        }
        message = parsed.data;
      } catch {
        this.send(connection, { type: 'error', id: null, ...callableErrorBody('invalid-argument', 'Not JSON') });
        return;
      }
      if (message.type === 'subscribe') this.subscribe(connection, message);
      else this.unsubscribe(connection, message.id);
    });
    socket.on('close', () => this.release(connection));
  }

  /**
   * A session revoked after the upgrade request found it, but before this socket was listed under
   * it, sent its notification to nobody. NOTIFY is delivered after the commit, so once the socket is
   * listed, one read shows every revocation that this socket could have missed.
   */
  private async confirmSession(connection: Connection, sessionId: string) {
    try {
      const [found] = await this.database.db
        .select({ id: sessionTable.id })
        .from(sessionTable)
        .where(eq(sessionTable.id, sessionId))
        .limit(1);
      if (!found) this.close(connection, liveCloseCodes.sessionEnded, 'The session has ended');
    } catch (error) {
      connection.ctx.log.warn({ err: error }, 'live: confirming the session failed');
    }
  }

  /** Stops serving a socket and closes it; frames already queued go out first, then the close frame. */
  private close(connection: Connection, code: number, reason: string) {
    this.release(connection);
    const { socket } = connection;
    if (socket.readyState === socket.OPEN) socket.close(code, reason);
  }

  /** Forgets a socket: its subscriptions end and nothing more is sent to it. */
  private release(connection: Connection) {
    if (connection.closed) return;
    connection.closed = true;
    this.connections.delete(connection);
    for (const id of [...connection.subscriptions.keys()]) this.unsubscribe(connection, id);
    if (connection.sessionId) removeFromSet(this.bySession, connection.sessionId, connection);
    if (connection.ctx.user) removeFromSet(this.byUser, connection.ctx.user.id, connection);
  }

  private subscribe(connection: Connection, message: Extract<LiveClientMessage, { type: 'subscribe' }>) {
    const fail = (error: CallableError) =>
      this.send(connection, {
        type: 'error',
        id: message.id,
        ...callableErrorBody(error.code, error.message, error.details),
      });
    if (connection.subscriptions.has(message.id))
      return fail(new CallableError('already-exists', `Subscription ${message.id} exists`));
    if (connection.subscriptions.size >= this.limits.maxSubscriptionsPerSocket)
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
      pending: null,
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

  /**
   * Re-reads a subscription's rows (all of them, or only the keys the changes name) and sends what
   * changed; changes arriving meanwhile trigger one more read. No changes: the whole list.
   */
  private async refresh(subscription: Subscription, changes?: TopicChanges) {
    const whole: TopicChanges = new Map([['', null]]);
    const incoming = changes ?? whole;
    if (subscription.running) {
      if (!subscription.pending) subscription.pending = new Map();
      for (const [topic, keys] of incoming) {
        if (keys === null) subscription.pending.set(topic, null);
        else for (const key of keys) addChange(subscription.pending, topicWithKeys(topic, [key]));
      }
      return;
    }
    subscription.running = true;
    try {
      let next: TopicChanges | null = incoming;
      while (next && !subscription.closed) {
        subscription.pending = null;
        await this.load(subscription, this.keysFor(subscription, next));
        next = subscription.pending;
      }
    } finally {
      subscription.running = false;
    }
  }

  /** The keys to read by topic, when the query reads by keys and every change named its keys; else null (read all). */
  private keysFor(subscription: Subscription, changes: TopicChanges): Map<string, string[]> | null {
    // Not before the first snapshot: it is the whole list.
    if (!subscription.query.keyed || subscription.version === 0) return null;
    const keyedTopics = new Set(subscription.query.keyed.topics(subscription.params));
    const keys = new Map<string, string[]>();
    for (const [topic, named] of changes) {
      if (named === null || !keyedTopics.has(topic)) return null;
      keys.set(topic, [...named]);
    }
    return keys;
  }

  private async load(subscription: Subscription, keys: Map<string, string[]> | null) {
    const { query, socket: connection } = subscription;
    let loaded: LoadedRows;
    try {
      loaded = await this.loads.read(query, subscription.params, connection.ctx, keys);
    } catch (error) {
      if (subscription.closed) return;
      const known = error instanceof CallableError ? error : callableErrorFromDatabase(error);
      if (!known) connection.ctx.log.error({ err: error, query: query.contract.name }, 'live query failed');
      const reported = known ?? new CallableError('internal', 'Internal error');
      this.send(connection, {
        type: 'error',
        id: subscription.id,
        ...callableErrorBody(reported.code, reported.message, reported.details),
      });
      this.unsubscribe(connection, subscription.id);
      return;
    }
    if (subscription.closed) return;
    // The rows read by their keys: each one new or changed is sent, nothing is removed or reordered.
    if (keys) return this.sendChanges(subscription, this.changes.keyed(subscription.rows, loaded));
    this.setTopics(subscription, query.topics(subscription.params, loaded.rows, connection.ctx));

    if (subscription.version === 0) {
      subscription.rows = loaded.next;
      subscription.version = this.nextVersion();
      const { id, version } = subscription;
      this.sendJson(
        connection,
        () => `{"type":"snapshot","id":${JSON.stringify(id)},"rows":${rowsJson(loaded)},"version":${version}}`,
      );
      return;
    }
    this.sendChanges(subscription, this.changes.whole(subscription.rows, loaded));
  }

  /** Moves a subscription to the rows a read left it with, and sends what changed (the same JSON its co-subscribers get). */
  private sendChanges(subscription: Subscription, outcome: Outcome) {
    subscription.rows = outcome.rows;
    if (!outcome.changes) return;
    subscription.version = this.nextVersion();
    const { id, version } = subscription;
    this.sendJson(
      subscription.socket,
      () => `{"type":"changes","id":${JSON.stringify(id)},${outcome.changes},"version":${version}}`,
    );
  }

  private send(connection: Connection, message: LiveServerMessage) {
    this.sendJson(connection, () => JSON.stringify(message));
  }

  private sendJson(connection: Connection, json: () => string) {
    const { socket } = connection;
    if (connection.closed || socket.readyState !== socket.OPEN) return;
    // Backpressure, checked before the message is even built: a client that does not read (or reads
    // too slowly) would otherwise make this process keep every message for it. The limit counts on
    // top of the largest message already sent, which a slow client may still be reading (a door's
    // list of 10,000 attendees on a bad network). So a socket holds at most the limit plus twice its
    // largest message (decision 0029).
    if (socket.bufferedAmount > this.limits.maxBufferedBytes + connection.largestMessageBytes) {
      connection.ctx.log.warn({ bufferedBytes: socket.bufferedAmount }, 'live: closing a socket that does not keep up');
      this.close(connection, liveCloseCodes.tryAgainLater, 'Too much unread data; reconnect later');
      return;
    }
    const data = Buffer.from(json());
    connection.largestMessageBytes = Math.max(connection.largestMessageBytes, data.length);
    socket.send(data, { binary: false });
  }

  // For /metrics (platform/metrics): the sockets served, their subscriptions, the upgrades refused.
  private readonly connections = new Set<Connection>();
  private refusedSockets = 0;

  /** Read on each scrape of /metrics: sockets open on this process, their subscriptions, upgrades refused so far. */
  stats() {
    let subscriptions = 0;
    for (const connection of this.connections) subscriptions += connection.subscriptions.size;
    return { sockets: this.connections.size, subscriptions, refusedSockets: this.refusedSockets };
  }
}
