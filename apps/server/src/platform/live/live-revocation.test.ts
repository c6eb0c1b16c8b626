import { changeMemberRole, removeMember } from '@admit/shared/orgs';
import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { addMember, createOrgAs, createPublishedEvent } from '../../testing/fixtures';
import { openLive } from '../../testing/live-watch';
import { cookiesOf, createTestApp, type TestApp } from '../../testing/test-app';
import { outboxMessage } from '../mail/schema';

type Live = Awaited<ReturnType<typeof openLive>>;

// The app runs with its default session check (60 s): a socket that closes within these tests was
// closed because the session or the role went, not because a timer came round.
const promptly = { timeout: 5_000 };
const origin = 'http://localhost:3000';

let t: TestApp;
let baseUrl: string;
const opened: Live[] = [];

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((live) => live.close()));
});
afterAll(() => t?.close());

async function connect(cookie: string, url = baseUrl) {
  const live = await openLive(url, { cookie });
  opened.push(live);
  return live;
}

/** A socket signed in and subscribed, with its first snapshot in: it is being served. */
async function watching(cookie: string, url = baseUrl) {
  const live = await connect(cookie, url);
  live.subscribe('mine', 'orgs.mine');
  await expect.poll(() => live.find('mine', 'snapshot'), promptly).toBeDefined();
  return live;
}

async function authPost(path: string, payload: unknown, cookie?: string, app = t.app) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin, ...(cookie ? { cookie } : {}) },
    payload: JSON.stringify(payload),
  });
  return { status: response.statusCode, cookie: cookiesOf(response.headers['set-cookie']) };
}

/** Another session of the same person (another device): its cookie and its session token. */
async function signIn(person: { email: string; password: string }) {
  const { status, cookie } = await authPost('/sign-in/email', { email: person.email, password: person.password });
  expect(status).toBe(200);
  // The cookie holds the token and its signature: `better-auth.session_token=<token>.<signature>`.
  return { cookie, token: decodeURIComponent(cookie.split('=')[1]!).split('.')[0]! };
}

const closeCode = (live: Live) => live.closed()?.code;

describe('a live socket whose session ends', () => {
  it('closes with 4401 when its session is revoked from another device, and the other device stays', async () => {
    const person = await t.signUp('Rhea Revoked');
    const phone = await signIn(person);
    const [onPhone, onLaptop] = [await watching(phone.cookie), await watching(person.cookie)];

    expect((await authPost('/revoke-session', { token: phone.token }, person.cookie)).status).toBe(200);

    await expect.poll(() => closeCode(onPhone), promptly).toBe(4401);
    expect(onPhone.closed()?.reason).toBe('The session has ended');
    expect(onLaptop.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('closes every socket of the person when all their sessions are revoked', async () => {
    const person = await t.signUp('Sal Sessions');
    const phone = await signIn(person);
    const sockets = [await watching(phone.cookie), await watching(person.cookie), await watching(person.cookie)];

    expect((await authPost('/revoke-sessions', {}, person.cookie)).status).toBe(200);

    await expect.poll(() => sockets.map(closeCode), promptly).toEqual([4401, 4401, 4401]);
  });

  it("closes the other devices' sockets when the person signs out everywhere else, and keeps this one", async () => {
    const person = await t.signUp('Otto Others');
    const [phone, tablet] = [await signIn(person), await signIn(person)];
    const [onPhone, onTablet, here] = [
      await watching(phone.cookie),
      await watching(tablet.cookie),
      await watching(person.cookie),
    ];

    expect((await authPost('/revoke-other-sessions', {}, person.cookie)).status).toBe(200);

    await expect.poll(() => [closeCode(onPhone), closeCode(onTablet)], promptly).toEqual([4401, 4401]);
    expect(here.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('closes the socket of a session that signs out', async () => {
    const person = await t.signUp('Sigrid Signout');
    const live = await watching(person.cookie);

    expect((await authPost('/sign-out', {}, person.cookie)).status).toBe(200);

    await expect.poll(() => closeCode(live), promptly).toBe(4401);
  });

  it('closes every socket of the person when their password is reset through the emailed link', async () => {
    const person = await t.signUp('Rita Reset');
    const phone = await signIn(person);
    const sockets = [await watching(person.cookie), await watching(phone.cookie)];

    expect((await authPost('/request-password-reset', { email: person.email, redirectTo: '/reset-password' })).status).toBe(200);
    const [email] = await t.db
      .select()
      .from(outboxMessage)
      .where(eq(outboxMessage.to, person.email))
      .orderBy(desc(outboxMessage.createdAt))
      .limit(1);
    const token = new URL(email!.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token');
    expect((await authPost('/reset-password', { token, newPassword: 'a brand new secret' })).status).toBe(200);

    await expect.poll(() => sockets.map(closeCode), promptly).toEqual([4401, 4401]);
  });

  it('closes every socket of a person who deletes their account', async () => {
    const person = await t.signUp('Dana Deleted');
    const phone = await signIn(person);
    const sockets = [await watching(person.cookie), await watching(phone.cookie)];

    expect((await authPost('/delete-user', { password: person.password }, person.cookie)).status).toBe(200);

    await expect.poll(() => sockets.map(closeCode), promptly).toEqual([4401, 4401]);
  });
});

describe("a live socket whose person's role changes", () => {
  it('ends at once the subscriptions a removed member may no longer see, and keeps the socket and their own', async () => {
    const [owner, staff] = await Promise.all([t.signUp('Owen Owner'), t.signUp('Stan Staff')]);
    const { organizationId } = await createOrgAs(t, owner.cookie);
    await addMember(t, organizationId, staff.user.id, 'staff');
    const live = await watching(staff.cookie);
    live.subscribe('events', 'events.forOrg', { organizationId });
    await expect.poll(() => live.find('events', 'snapshot'), promptly).toBeDefined();

    expect((await t.call(removeMember, { organizationId, userId: staff.user.id }, owner.cookie)).status).toBe(200);

    await expect.poll(() => live.find('events', 'error')?.error.status, promptly).toBe('NOT_FOUND');
    expect(live.socket.readyState).toBe(WebSocket.OPEN);
    expect(live.find('mine', 'error')).toBeUndefined();
  });

  it("ends at once an admin's subscription to an event's orders when their role becomes staff", async () => {
    const [owner, admin] = await Promise.all([t.signUp('Ona Owner'), t.signUp('Adam Admin')]);
    const { organizationId, eventId } = await createPublishedEvent(t, owner.cookie);
    await addMember(t, organizationId, admin.user.id, 'admin');
    const live = await watching(admin.cookie);
    live.subscribe('orders', 'orders.forEvent', { eventId });
    await expect.poll(() => live.find('orders', 'snapshot'), promptly).toBeDefined();

    const changed = await t.call(changeMemberRole, { organizationId, userId: admin.user.id, role: 'staff' }, owner.cookie);
    expect(changed.status).toBe(200);

    await expect.poll(() => live.find('orders', 'error')?.error.status, promptly).toBe('PERMISSION_DENIED');
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('with a second server instance on the same database', () => {
  let second: TestApp;
  let secondUrl: string;
  beforeAll(async () => {
    second = await createTestApp({ databaseUrl: t.database.url! });
    secondUrl = await second.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => second?.close());

  it('closes a socket on the second instance when its session is revoked through the first', async () => {
    const person = await t.signUp('Ivo Instances');
    const phone = await signIn(person);
    const onSecond = await watching(phone.cookie, secondUrl);

    expect((await authPost('/revoke-session', { token: phone.token }, person.cookie)).status).toBe(200);

    await expect.poll(() => closeCode(onSecond), promptly).toBe(4401);
  });

  it('ends a subscription on the second instance when the member is removed through the first', async () => {
    const [owner, staff] = await Promise.all([t.signUp('Oda Owner'), t.signUp('Sven Staff')]);
    const { organizationId } = await createOrgAs(t, owner.cookie);
    await addMember(t, organizationId, staff.user.id, 'staff');
    const onSecond = await watching(staff.cookie, secondUrl);
    onSecond.subscribe('events', 'events.forOrg', { organizationId });
    await expect.poll(() => onSecond.find('events', 'snapshot'), promptly).toBeDefined();

    expect((await t.call(removeMember, { organizationId, userId: staff.user.id }, owner.cookie)).status).toBe(200);

    await expect.poll(() => onSecond.find('events', 'error')?.error.status, promptly).toBe('NOT_FOUND');
  });
});
