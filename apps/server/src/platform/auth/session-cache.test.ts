import { createOrder } from '@admit/shared/orders';
import { createOrg } from '@admit/shared/orgs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { session, user } from './schema';

// Sessions looked up are kept for a while, so that a signed-in call does not pay a full lookup each
// time; what must never be kept is a session that ended or a person who changed.

let t: TestApp;
let second: TestApp | undefined;

beforeAll(async () => {
  t = await createTestApp();
  // Two instances on one database, as behind a load balancer (PostgreSQL only).
  if (t.database.url) second = await createTestApp({ databaseUrl: t.database.url });
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const whoAmI = (app: TestApp, cookie: string) => app.call(createOrg, { name: 'Cache Club' }, cookie);

async function sessionIdOf(app: TestApp, cookie: string) {
  const response = await app.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } });
  return (response.json() as { session: { id: string } }).session.id;
}

describe('sessions the server keeps', () => {
  it('answers from a session it looked up a moment ago, though the database no longer would', async () => {
    const person = await t.signUp('Kim Kept');
    expect((await whoAmI(t, person.cookie)).status).toBe(200);
    // Expired behind the server's back (no sign-out announces it): the kept session still answers,
    // which is what spares the lookup. A sign-out is announced, and never kept (below).
    await t.db
      .update(session)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(session.userId, person.user.id));
    expect((await whoAmI(t, person.cookie)).status).toBe(200);
  });

  it('refuses a session at once once it is revoked, though it was used a moment before', async () => {
    const person = await t.signUp('Rita Revoked');
    expect((await whoAmI(t, person.cookie)).status).toBe(200);
    await t.db.delete(session).where(eq(session.id, await sessionIdOf(t, person.cookie)));
    await expect.poll(async () => (await whoAmI(t, person.cookie)).status, { timeout: 2_000, interval: 50 }).toBe(401);
  });

  it('signs a person out at once when they sign out', async () => {
    const person = await t.signUp('Sid Signout');
    expect((await whoAmI(t, person.cookie)).status).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: person.cookie, origin: 'http://localhost:3000', 'content-type': 'application/json' },
      payload: '{}',
    });
    await expect.poll(async () => (await whoAmI(t, person.cookie)).status, { timeout: 2_000, interval: 50 }).toBe(401);
  });

  it('uses a person’s new name at once', async () => {
    const organizer = await t.signUp('Olga Organizer');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, organizer.cookie);
    const person = await t.signUp('Old Name');
    const buy = () => t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] }, person.cookie);
    const first = await buy();
    await t.db.update(user).set({ name: 'New Name' }).where(eq(user.id, person.user.id));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await buy();
    // The orders' tables belong to a module; this test reads them as any SQL client would.
    const { rows: names } = await t.database.execute('select id, buyer_name as "buyerName" from "order" where buyer_id = $1', [
      person.user.id,
    ]);
    const nameOf = (orderId: string) => names.find((one) => one.id === orderId)?.buyerName;
    expect(nameOf(first.body.result.orderId)).toBe('Old Name');
    expect(nameOf(second.body.result.orderId)).toBe('New Name');
  });

  it('refuses a session revoked through another instance at once on this one', async () => {
    if (!second) return; // two instances share a database only on PostgreSQL
    const person = await t.signUp('Ivy Instances');
    expect((await whoAmI(second, person.cookie)).status).toBe(200);
    await t.db.delete(session).where(eq(session.id, await sessionIdOf(t, person.cookie)));
    await expect.poll(async () => (await whoAmI(second!, person.cookie)).status, { timeout: 2_000, interval: 50 }).toBe(401);
  });
});
