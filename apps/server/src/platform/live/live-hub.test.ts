import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import { createEvent } from '@admit/shared/events';
import type { LiveRow, LiveServerMessage } from '@admit/shared/live';
import { createOrder } from '@admit/shared/orders';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addMember, createOrgAs, createPublishedEvent } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';

type Person = Awaited<ReturnType<TestApp['signUp']>>;
type Snapshot = Extract<LiveServerMessage, { type: 'snapshot' }>;
type Changes = Extract<LiveServerMessage, { type: 'changes' }>;
type LiveError = Extract<LiveServerMessage, { type: 'error' }>;

/** How long a change may take to reach a listener: docs/product.md asks for a second; tests allow two. */
const changeWithinMs = 2_000;

/** A /live connection that records every message, for tests to wait on. */
class LiveSocket {
  readonly messages: LiveServerMessage[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(String(data)) as LiveServerMessage);
      for (const wake of this.waiters) wake();
    });
  }

  /** Opens a socket; with a cookie, the upgrade request carries the session as the browser's would. */
  static async open(baseUrl: string, cookie?: string) {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers: cookie ? { cookie } : {} });
    await once(socket, 'open');
    return new LiveSocket(socket);
  }

  send(message: unknown) {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  subscribe(id: string, query: string, params: unknown) {
    this.send({ type: 'subscribe', id, query, params });
  }

  /** The first message (already received or still to come) that matches. */
  async waitFor<T extends LiveServerMessage>(
    predicate: (message: LiveServerMessage) => boolean,
    timeoutMs = changeWithinMs,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found as T;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching live message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /**
   * The rows of a subscription as a client holds them (its snapshot with every change applied),
   * once they satisfy `predicate`. Waiting on the state rather than on one message allows for a
   * change that arrives in two steps.
   */
  async rowsWhen(id: string, predicate: (rows: Map<string, LiveRow>) => boolean, timeoutMs = changeWithinMs) {
    let rows = new Map<string, LiveRow>();
    await this.waitFor(() => {
      rows = this.rowsOf(id);
      return predicate(rows);
    }, timeoutMs);
    return rows;
  }

  rowsOf(id: string) {
    const rows = new Map<string, LiveRow>();
    for (const message of this.of(id)) {
      if (message.type === 'snapshot') {
        rows.clear();
        for (const row of message.rows) rows.set(row.id, row);
      } else if (message.type === 'changes') {
        for (const row of message.upserts) rows.set(row.id, row);
        for (const removed of message.removes) rows.delete(removed);
      }
    }
    return rows;
  }

  snapshot(id: string) {
    return this.waitFor<Snapshot>((message) => message.type === 'snapshot' && message.id === id);
  }

  changes(id: string, after = 0) {
    return this.waitFor<Changes>((message) => message.type === 'changes' && message.id === id && message.version > after);
  }

  error(id: string | null) {
    return this.waitFor<LiveError>((message) => message.type === 'error' && message.id === id);
  }

  of(id: string) {
    return this.messages.filter((message) => 'id' in message && message.id === id);
  }

  async close() {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    const closed = once(this.socket, 'close');
    this.socket.close();
    await closed;
  }
}

let t: TestApp;
let baseUrl: string;
let owner: Person;
let buyer: Person;
let staff: Person;
const sockets: LiveSocket[] = [];

async function connect(cookie?: string, url = baseUrl) {
  const socket = await LiveSocket.open(url, cookie);
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  [owner, buyer, staff] = await Promise.all([t.signUp('Olivia Owner'), t.signUp('Bob Buyer'), t.signUp('Sam Staff')]);
});
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => socket.close()));
});
afterAll(() => t?.close());

const buy = (cookie: string, eventId: string, ticketTypeId: string, quantity: number) =>
  t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity }] }, cookie);

describe('live queries on /live', () => {
  it('sends a signed-out visitor a snapshot of the availability of a published event', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ name: 'Standing', capacity: 50 }],
    });
    const visitor = await connect();

    visitor.subscribe('availability', 'events.availability', { eventId });
    const snapshot = await visitor.snapshot('availability');

    expect(snapshot.version).toBeGreaterThan(0);
    expect(snapshot.rows).toEqual([
      expect.objectContaining({ id: ticketTypeIds[0], eventId, name: 'Standing', capacity: 50, remaining: 50 }),
    ]);
  });

  it('sends the new remaining within two seconds when someone else buys', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 50 }] });
    const visitor = await connect();
    visitor.subscribe('availability', 'events.availability', { eventId });
    const snapshot = await visitor.snapshot('availability');

    expect((await buy(buyer.cookie, eventId, ticketTypeIds[0]!, 3)).status).toBe(200);
    const changes = await visitor.changes('availability', snapshot.version);

    expect(changes.upserts).toEqual([expect.objectContaining({ id: ticketTypeIds[0], remaining: 47 })]);
    expect(changes.removes).toEqual([]);
  });

  it('shows the event-wide capacity in the remaining of every ticket type', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 10,
      ticketTypes: [
        { name: 'Early', capacity: 8 },
        { name: 'Regular', capacity: 8 },
      ],
    });
    const visitor = await connect();
    visitor.subscribe('availability', 'events.availability', { eventId });
    const snapshot = await visitor.snapshot('availability');

    expect(snapshot.rows.map((row) => (row as unknown as { remaining: number }).remaining)).toEqual([8, 8]);

    expect((await buy(buyer.cookie, eventId, ticketTypeIds[0]!, 5)).status).toBe(200);

    // Both ticket types change: Early by what was sold, Regular because the event has only 5 places left.
    const expected = { [ticketTypeIds[0]!]: 3, [ticketTypeIds[1]!]: 5 };
    const remainingOf = (rows: Map<string, LiveRow>) =>
      Object.fromEntries([...rows.values()].map((row) => [row.id, (row as unknown as { remaining: number }).remaining]));
    const rows = await visitor.rowsWhen('availability', (current) => isDeepStrictEqual(remainingOf(current), expected));
    expect(remainingOf(rows)).toEqual(expected);
  });

  it("sends an organization's owner each new order of its event", async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie);
    const organizer = await connect(owner.cookie);
    organizer.subscribe('orders', 'orders.forEvent', { eventId });
    const snapshot = await organizer.snapshot('orders');
    expect(snapshot.rows).toEqual([]);

    expect((await buy(buyer.cookie, eventId, ticketTypeIds[0]!, 2)).status).toBe(200);
    const changes = await organizer.changes('orders', snapshot.version);

    expect(changes.upserts).toEqual([
      expect.objectContaining({ eventId, buyerName: 'Bob Buyer', email: buyer.email, status: 'paid', ticketCount: 2 }),
    ]);
  });

  it('authenticates the socket by the session cookie sent with the upgrade', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie, 'Cookie Jar Club');
    const organizer = await connect(owner.cookie);
    organizer.subscribe('mine', 'orgs.mine', {});
    const snapshot = await organizer.snapshot('mine');
    expect(snapshot.rows).toContainEqual({
      id: organizationId,
      name: 'Cookie Jar Club',
      slug: expect.any(String),
      role: 'owner',
      requireTwoFactor: false,
      logo: null,
    });

    const stranger = await connect();
    stranger.subscribe('mine', 'orgs.mine', {});
    expect((await stranger.error('mine')).error.status).toBe('UNAUTHENTICATED');
  });

  it('treats a forged session cookie as signed out', async () => {
    const forger = await connect('better-auth.session_token=not-a-real-token.signature');
    forger.subscribe('mine', 'orgs.mine', {});
    expect((await forger.error('mine')).error.status).toBe('UNAUTHENTICATED');
  });

  it("refuses an event's orders to a buyer who is not in its organization, to its staff, and to someone signed out", async () => {
    const { organizationId, eventId } = await createPublishedEvent(t, owner.cookie);
    await addMember(t, organizationId, staff.user.id, 'staff');

    const asBuyer = await connect(buyer.cookie);
    asBuyer.subscribe('orders', 'orders.forEvent', { eventId });
    expect(['PERMISSION_DENIED', 'NOT_FOUND']).toContain((await asBuyer.error('orders')).error.status);

    const asStaff = await connect(staff.cookie);
    asStaff.subscribe('orders', 'orders.forEvent', { eventId });
    expect((await asStaff.error('orders')).error.status).toBe('PERMISSION_DENIED');

    const signedOut = await connect();
    signedOut.subscribe('orders', 'orders.forEvent', { eventId });
    expect((await signedOut.error('orders')).error.status).toBe('UNAUTHENTICATED');

    for (const socket of [asBuyer, asStaff, signedOut])
      expect(socket.messages.some((message) => message.type === 'snapshot')).toBe(false);
  });

  it('answers a message that is not JSON with invalid-argument', async () => {
    const socket = await connect();
    socket.send('subscribe me, please');
    const { error } = await socket.error(null);
    expect(error.status).toBe('INVALID_ARGUMENT');
  });

  it('answers a message of the wrong shape with invalid-argument listing its fields', async () => {
    const socket = await connect();
    socket.send({ type: 'subscribe', query: 'events.availability' });
    const { error } = await socket.error(null);
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect((error.details as { fields: { path: string }[] }).fields.map((field) => field.path)).toContain('id');
  });

  it('answers parameters that fail their schema with invalid-argument for that subscription', async () => {
    const socket = await connect();
    socket.subscribe('bad', 'events.availability', { eventId: '', extra: 1 });
    const { error } = await socket.error('bad');
    expect(error.status).toBe('INVALID_ARGUMENT');
    expect((error.details as { fields: { path: string }[] }).fields.map((field) => field.path)).toEqual(
      expect.arrayContaining(['eventId', '']),
    );
  });

  it('answers an unknown query with not-found', async () => {
    const socket = await connect();
    socket.subscribe('nope', 'events.everything', {});
    const { error } = await socket.error('nope');
    expect(error.status).toBe('NOT_FOUND');
  });

  it('answers a draft event with not-found to a visitor', async () => {
    const { organizationId } = await createPublishedEvent(t, owner.cookie);
    const draft = await t.call(
      createEvent,
      {
        organizationId,
        title: 'Secret show',
        venue: 'Cellar',
        timeZone: 'Europe/Berlin',
        startsAtLocal: '2030-02-01T20:00',
        endsAtLocal: '2030-02-01T23:00',
        capacity: 10,
      },
      owner.cookie,
    );
    const visitor = await connect();
    visitor.subscribe('draft', 'events.availability', { eventId: draft.body.result.eventId });
    expect((await visitor.error('draft')).error.status).toBe('NOT_FOUND');
  });

  it('refuses a second subscription with an id already in use', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const socket = await connect();
    socket.subscribe('twice', 'events.availability', { eventId });
    await socket.snapshot('twice');
    socket.subscribe('twice', 'events.availability', { eventId });
    expect((await socket.error('twice')).error.status).toBe('ALREADY_EXISTS');
  });

  it('stops sending changes once unsubscribed', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie);
    const socket = await connect();
    socket.subscribe('leaving', 'events.availability', { eventId });
    socket.subscribe('staying', 'events.availability', { eventId });
    await socket.snapshot('leaving');
    const staying = await socket.snapshot('staying');

    socket.send({ type: 'unsubscribe', id: 'leaving' });
    // Messages on one socket arrive in order: once this answer comes, the unsubscribe has been handled.
    socket.subscribe('marker', 'events.everything', {});
    await socket.error('marker');
    expect((await buy(buyer.cookie, eventId, ticketTypeIds[0]!, 1)).status).toBe(200);

    // The subscription that stayed on the same topic got the change; the one that left did not.
    await socket.changes('staying', staying.version);
    await sleep(200);
    expect(socket.of('leaving').map((message) => message.type)).toEqual(['snapshot']);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'carries a change made through one server instance to a listener on another instance of the same database',
    async () => {
      const second = await createTestApp({ databaseUrl: t.database.url! });
      try {
        const secondUrl = await second.app.listen({ port: 0, host: '127.0.0.1' });
        const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 20 }] });
        const onSecond = await connect(undefined, secondUrl);
        onSecond.subscribe('availability', 'events.availability', { eventId });
        const snapshot = await onSecond.snapshot('availability');
        expect(snapshot.rows).toEqual([expect.objectContaining({ remaining: 20 })]);

        // The order goes through the first instance only.
        expect((await buy(buyer.cookie, eventId, ticketTypeIds[0]!, 4)).status).toBe(200);
        const changes = await onSecond.changes('availability', snapshot.version);

        expect(changes.upserts).toEqual([expect.objectContaining({ id: ticketTypeIds[0], remaining: 16 })]);
        await onSecond.close();
      } finally {
        await second.close();
      }
    },
  );
});
