import { once } from 'node:events';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addTicketTypeAs, createEventAs, createOrgAs, publishAs } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { loadConfig } from '../config';

// Garbage collected on demand, without starting the suite with --expose-gc: memory is compared
// after a collection, so that only what is still held counts.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** What this process holds: JavaScript objects and the buffers outside the heap (unsent frames). */
async function memoryHeld() {
  // Buffers outside the heap are freed a turn after the collection that finds them unreachable.
  for (let round = 0; round < 3; round++) {
    collectGarbage();
    await new Promise(setImmediate);
  }
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

const mib = 1024 * 1024;
/** The default limit, which the test app runs with. */
const limit = loadConfig({}).LIVE_MAX_BUFFERED_BYTES;
/** Allowed for everything but the attacker's frames: the test's own objects, caches warmed by it. */
const slack = 8 * mib;

let t: TestApp;
let liveUrl: string;
/** The size of one events.published snapshot, as the server sends it. */
let snapshotBytes = 0;

beforeAll(async () => {
  t = await createTestApp();
  liveUrl = `${(await t.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws')}/live`;
  const owner = await t.signUp('Olga Organizer');
  const { organizationId } = await createOrgAs(t, owner.cookie);
  // A public query of about 1 MB, as in the attack: 40 events with 10,000-character descriptions
  // of 3-byte characters.
  for (let index = 0; index < 40; index++) {
    const { eventId } = await createEventAs(t, owner.cookie, organizationId, { description: '€'.repeat(10_000) });
    await addTicketTypeAs(t, owner.cookie, eventId, { capacity: 10 });
    await publishAs(t, owner.cookie, eventId);
  }
  // A client that reads: measures the snapshot, and warms up what the attack will run.
  const reader = new WebSocket(liveUrl);
  await once(reader, 'open');
  reader.send(JSON.stringify({ type: 'subscribe', id: 'all', query: 'events.published', params: {} }));
  const [data] = (await once(reader, 'message')) as [Buffer];
  snapshotBytes = data.length;
  reader.close();
  await once(reader, 'close');
});
afterAll(() => t?.close());

describe('backpressure on /live', () => {
  it('closes a socket that asks a hundred times for a 1 MB snapshot and reads nothing, holding at most the limit and two messages for it', async () => {
    expect(snapshotBytes).toBeGreaterThan(mib);
    const before = await memoryHeld();
    const serverSide = new Promise<WebSocket>((resolve) => t.app.websocketServer.once('connection', resolve));
    const attacker = new WebSocket(liveUrl);
    await once(attacker, 'open');
    // From now on nothing is read from the TCP stream: what the server sends piles up.
    attacker.pause();
    const server = await serverSide;
    for (let index = 0; index < 100; index++)
      attacker.send(JSON.stringify({ type: 'subscribe', id: `s${index}`, query: 'events.published', params: {} }));

    // Without backpressure 100 MB would wait in the server for this socket, which would stay open.
    let peak = 0;
    await expect
      .poll(
        () => {
          peak = Math.max(peak, server.bufferedAmount);
          return server.readyState;
        },
        { timeout: 30_000, interval: 10 },
      )
      .not.toBe(WebSocket.OPEN);
    const bound = limit + 2 * snapshotBytes;
    expect(peak).toBeLessThanOrEqual(bound);
    expect(server.bufferedAmount).toBeLessThanOrEqual(bound);
    expect((await memoryHeld()) - before).toBeLessThan(bound + slack);

    // Once the client reads, it gets what was queued and then the close frame: try again later.
    const closed = once(attacker, 'close');
    attacker.resume();
    const [code, reason] = (await closed) as [number, Buffer];
    expect(code).toBe(1013);
    expect(String(reason)).toBe('Too much unread data; reconnect later');
    await expect.poll(() => server.readyState).toBe(WebSocket.CLOSED);
    expect((await memoryHeld()) - before).toBeLessThan(slack);
  });

  it('closes a socket whose message is larger than 64 KiB with 1009, message too big', async () => {
    const client = new WebSocket(liveUrl);
    await once(client, 'open');
    const closed = once(client, 'close');
    client.send(
      JSON.stringify({ type: 'subscribe', id: 'big', query: 'events.published', params: { padding: 'x'.repeat(64 * 1024) } }),
    );
    const [code] = (await closed) as [number];
    expect(code).toBe(1009);
  });
});
