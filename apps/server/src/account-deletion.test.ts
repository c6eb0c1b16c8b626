import { randomUUID } from 'node:crypto';
import { sendAttendeeMessage } from '@admit/shared/attendee-messages';
import { createOrder } from '@admit/shared/orders';
import { acceptInvitation, createOrg, inviteMember, transferOwnership } from '@admit/shared/orgs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendeeMessageRecipient } from './modules/messages/schema';
import { order } from './modules/orders/schema';
import { ticket } from './modules/tickets/schema';
import { account, user } from './platform/auth/schema';
import { createPublishedEvent } from './testing/fixtures';
import { dataInvariantViolations } from './testing/invariants';
import { createTestApp, type TestApp } from './testing/test-app';

// Account deletion and unlinking (decision 0015) cross platform/auth and the orders module, so the
// tests live beside app.ts, which puts the two together.

let t: TestApp;
const origin = 'http://localhost:3000';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

async function authPost(path: string, payload: unknown, cookie: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/auth${path}`,
    headers: { 'content-type': 'application/json', origin, cookie },
    payload: JSON.stringify(payload),
  });
  return { status: response.statusCode, body: response.json() as Record<string, unknown> & { code?: string } };
}

async function buyOne(cookie: string, eventId: string, ticketTypeId: string) {
  const { status, body } = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 2 }] }, cookie);
  if (status !== 200) throw new Error(`order failed: ${JSON.stringify(body)}`);
  return body.result.orderId;
}

describe('sign-in methods', () => {
  it('refuses to unlink the last sign-in method', async () => {
    const person = await t.signUp('Una Unlink');
    const listed = await t.app.inject({ method: 'GET', url: '/api/auth/list-accounts', headers: { cookie: person.cookie } });
    const accounts = listed.json() as { id: string; providerId: string }[];
    expect(accounts.map((account) => account.providerId)).toEqual(['credential']);

    const { status, body } = await authPost('/unlink-account', { accountId: accounts[0]!.id }, person.cookie);

    expect(status).toBe(400);
    expect(body.code).toBe('FAILED_TO_UNLINK_LAST_ACCOUNT');
  });

  it('unlinks a provider while another method remains', async () => {
    const person = await t.signUp('Lena Linked');
    const providerAccountId = randomUUID();
    await t.db.insert(account).values({
      id: providerAccountId,
      userId: person.user.id,
      providerId: 'oidc',
      accountId: 'subject-1',
      createdAt: new Date(),
      updatedAt: new Date(),
    });

    const { status } = await authPost('/unlink-account', { accountId: providerAccountId }, person.cookie);

    expect(status).toBe(200);
    const left = await t.db.select().from(account).where(eq(account.userId, person.user.id));
    expect(left.map((row) => row.providerId)).toEqual(['credential']);
  });
});

describe('account deletion', () => {
  it('refuses while the person owns an organization with a future event that has a paid order', async () => {
    const owner = await t.signUp('Olga Owner');
    const buyer = await t.signUp('Ben Buyer');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie);
    await buyOne(buyer.cookie, eventId, ticketTypeIds[0]!);

    const { status, body } = await authPost('/delete-user', { password: owner.password }, owner.cookie);

    expect(status).toBe(400);
    expect(body.code).toBe('OWNS_ORGANIZATION_WITH_UPCOMING_SALES');
    expect(await t.db.select().from(user).where(eq(user.id, owner.user.id))).toHaveLength(1);
  });

  it('refuses while the person owns an organization with other members, who would be left without an owner', async () => {
    const owner = await t.signUp('Oskar Owner');
    const colleague = await t.signUp('Cleo Colleague');
    const { body } = await t.call(createOrg, { name: 'Team Venue' }, owner.cookie);
    const organizationId = body.result.organizationId;
    const invited = await t.call(inviteMember, { organizationId, email: colleague.email, role: 'staff' }, owner.cookie);
    await t.call(acceptInvitation, { invitationId: invited.body.result.invitationId }, colleague.cookie);

    const refused = await authPost('/delete-user', { password: owner.password }, owner.cookie);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('OWNS_ORGANIZATION_WITH_MEMBERS');

    // Once the colleague owns it, the former owner (now admin) may go.
    await t.call(transferOwnership, { organizationId, userId: colleague.user.id }, owner.cookie);
    expect((await authPost('/delete-user', { password: owner.password }, owner.cookie)).status).toBe(200);
  });

  it('lets an owner whose upcoming events have no paid orders delete their account', async () => {
    const owner = await t.signUp('Otto Owner');
    await createPublishedEvent(t, owner.cookie);

    const { status } = await authPost('/delete-user', { password: owner.password }, owner.cookie);

    expect(status).toBe(200);
    expect(await t.db.select().from(user).where(eq(user.id, owner.user.id))).toHaveLength(0);
  });

  it("erases the buyer's name and email from orders, tickets and the messages they got; the tickets stay valid", async () => {
    const owner = await t.signUp('Ola Organizer');
    const buyer = await t.signUp('Dora Deleted');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie);
    const orderId = await buyOne(buyer.cookie, eventId, ticketTypeIds[0]!);
    const message = await t.call(
      sendAttendeeMessage,
      { eventId, subject: 'Doors at 7', body: 'See you there', audience: {}, idempotencyKey: randomUUID() },
      owner.cookie,
    );
    await t.settleJobs();

    const wrongPassword = await authPost('/delete-user', { password: 'not the password' }, buyer.cookie);
    expect(wrongPassword.body.code).toBe('INVALID_PASSWORD');
    const { status } = await authPost('/delete-user', { password: buyer.password }, buyer.cookie);

    expect(status).toBe(200);
    const [kept] = await t.db.select().from(order).where(eq(order.id, orderId));
    expect(kept).toMatchObject({ buyerId: null, buyerName: 'Deleted account', email: 'Deleted account', status: 'paid' });
    const tickets = await t.db.select().from(ticket).where(eq(ticket.orderId, orderId));
    expect(tickets).toHaveLength(2);
    for (const kept of tickets)
      expect(kept).toMatchObject({ status: 'valid', holderName: 'Deleted account', holderEmail: 'Deleted account' });
    const serialized = JSON.stringify(await t.db.select().from(order).where(eq(order.eventId, eventId)));
    expect(serialized).not.toContain(buyer.email);
    // The record of who got the organizer's message keeps that someone did, not who.
    const recipients = await t.db
      .select()
      .from(attendeeMessageRecipient)
      .where(eq(attendeeMessageRecipient.messageId, message.body.result.messageId));
    expect(recipients).toHaveLength(1);
    expect(recipients[0]).toMatchObject({ name: 'Deleted account', status: 'sent' });
    expect(JSON.stringify(recipients)).not.toContain(buyer.email);
    // A message sent afterwards counts the erased holder as someone it cannot reach, and sends them nothing.
    const later = await t.call(
      sendAttendeeMessage,
      { eventId, subject: 'Doors at 8', body: 'One hour later', audience: {}, idempotencyKey: randomUUID() },
      owner.cookie,
    );
    await t.settleJobs();
    const [erased] = await t.db
      .select()
      .from(attendeeMessageRecipient)
      .where(eq(attendeeMessageRecipient.messageId, later.body.result.messageId));
    expect(erased).toMatchObject({ status: 'unreachable', sentAt: null });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin },
      payload: { email: buyer.email, password: buyer.password },
    });
    expect(signIn.statusCode).toBe(401);
  });
});
