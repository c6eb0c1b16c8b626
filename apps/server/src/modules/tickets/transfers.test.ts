import { randomUUID } from 'node:crypto';
import { scanTicket } from '@admit/shared/checkin';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { createQuestion } from '@admit/shared/questions';
import { setTicketHolder } from '@admit/shared/tickets';
import { acceptTransfer, cancelTransfer, configureTransfers, transferTicket } from '@admit/shared/transfers';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../platform/audit/schema';
import { orderActivity } from '../orders/schema';
import { createPublishedEvent, payWithTestCard } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ticket, ticketTransfer } from './schema';

// Tickets sent on (decision 0065): the holder sends a ticket to an address, the recipient accepts
// it by the emailed link (as a guest or signed in) and it is issued anew to them, the old code void.

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '1000' } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(() => t?.close());

const address = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.test`;

/** A published event (starting in 2030) with one free type, and a buyer with one ticket of it. */
async function soldTicket(options: { price?: number } = {}) {
  const owner = await t.signUp('Olga Organizer');
  const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    ticketTypes: [{ name: 'Standing', capacity: 5, price: options.price ?? 0 }],
  });
  const buyer = await t.signUp('Bea Buyer');
  const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 2 }] }, buyer.cookie);
  const orderId = placed.body.result.orderId as string;
  if (options.price) await payWithTestCard(t, buyer.cookie, orderId);
  const [first] = await t.db.select().from(ticket).where(eq(ticket.orderId, orderId)).orderBy(ticket.createdAt);
  return { owner, buyer, eventId, ticketTypeId: ticketTypeIds[0]!, orderId, ticket: first! };
}

/** The transfer link in the newest email to the address. */
async function transferLinkIn(to: string) {
  await t.settleJobs();
  const message = await t.lastMessageTo(to);
  const found = message.text.match(/\/transfers\/([^?\s]+)\?token=([A-Za-z0-9_-]+)/);
  if (!found) throw new Error(`no transfer link in ${message.text}`);
  return { transferId: decodeURIComponent(found[1]!), token: found[2]! };
}

async function scan(eventId: string, code: string, cookie: string) {
  const scanned = await t.call(
    scanTicket,
    { eventId, code, device: 'Door 1', scannedAt: new Date().toISOString(), idempotencyKey: randomUUID() },
    cookie,
  );
  return scanned.body.result.result as string;
}

describe('sending a ticket to someone', () => {
  it('issues it anew to a guest who accepts by the emailed link, answering the questions, and voids the old code', async () => {
    const { owner, buyer, eventId, ticketTypeId, orderId, ticket: sent } = await soldTicket();
    const asked = await t.call(createQuestion, { eventId, kind: 'text', label: 'Diet', required: true }, owner.cookie);
    const dietId = asked.body.result.questionId as string;
    const friend = address('finn');

    const mine = await watch(url, 'tickets.mine', {}, buyer.cookie);
    try {
      await expect.poll(() => mine.rows().find((row) => row.id === sent.id)?.transferUntil).toBeTruthy();
      const made = await t.call(transferTicket, { ticketId: sent.id, email: friend.toUpperCase() }, buyer.cookie);
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      await expect
        .poll(() => mine.rows().find((row) => row.id === sent.id)?.pendingTransfer)
        .toEqual({ id: made.body.result.transferId, toEmail: friend });

      const link = await transferLinkIn(friend);
      expect(link.transferId).toBe(made.body.result.transferId);
      expect((await t.lastMessageTo(friend)).subject).toMatch(/^Bea Buyer sent you a ticket for /);
      const incoming = await watch(url, 'tickets.incomingTransfer', { transferId: link.transferId, token: link.token });
      try {
        expect(incoming.rows()).toMatchObject([
          { status: 'pending', fromName: 'Bea Buyer', ticketTypeName: 'Standing', ticketId: null },
        ]);
        // A wrong token opens nothing; the questions are asked of the recipient.
        const wrong = await t.call(acceptTransfer, {
          transferId: link.transferId,
          token: link.token.replace(/^./, 'x'),
          name: 'Finn',
        });
        expect(wrong.body.error.status).toBe('not-found');
        const unanswered = await t.call(acceptTransfer, { ...link, name: 'Finn Friend' });
        expect(unanswered.body.error.status).toBe('invalid-argument');

        const accepted = await t.call(acceptTransfer, { ...link, name: 'Finn Friend', answers: { [dietId]: 'Vegan' } });
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
        const { ticketId, accessToken } = accepted.body.result;
        await expect.poll(() => incoming.rows()[0]?.status).toBe('accepted');
        expect(incoming.rows()[0]).toMatchObject({ ticketId, ticketAccessToken: accessToken });

        const [old] = await t.db.select().from(ticket).where(eq(ticket.id, sent.id));
        const [issued] = await t.db.select().from(ticket).where(eq(ticket.id, ticketId));
        expect(old).toMatchObject({ status: 'void', replacedBy: ticketId });
        expect(issued).toMatchObject({
          status: 'valid',
          orderId,
          ticketTypeId,
          holderName: 'Finn Friend',
          holderEmail: friend,
          holderUserId: null,
          transferredFrom: sent.id,
          answers: { [dietId]: 'Vegan' },
        });
        expect(issued!.code).not.toBe(old!.code);
        // Sold when the old one was: the analytics' day and the order's order of tickets stay.
        expect(issued!.createdAt).toEqual(old!.createdAt);

        // The door: the old code is void, the new one admits.
        expect(await scan(eventId, old!.code, owner.cookie)).toBe('void');
        expect(await scan(eventId, issued!.code, owner.cookie)).toBe('accepted');

        // The buyer no longer holds it: gone from My tickets, given away on the order, not theirs to rename.
        await expect.poll(() => mine.rows().map((row) => row.id)).not.toContain(sent.id);
        expect(mine.rows().map((row) => row.id)).not.toContain(ticketId);
        const renamed = await t.call(setTicketHolder, { ticketId, name: 'Not Finn' }, buyer.cookie);
        expect(renamed.body.error.status).toBe('not-found');
        const order = await watch(url, 'orders.mine', { orderId }, buyer.cookie);
        try {
          expect(order.rows()[0]!.tickets.find((one: { id: string }) => one.id === ticketId)).toMatchObject({
            holderName: 'Finn Friend',
            givenAway: true,
            transferUntil: null,
          });
        } finally {
          order.close();
        }
        // The guest holds it by its own link: the page, and its PDF.
        const held = await watch(url, 'tickets.held', { ticketId, accessToken });
        try {
          expect(held.rows()).toMatchObject([
            { id: ticketId, code: issued!.code, holderName: 'Finn Friend', receivedFrom: 'Bea Buyer' },
          ]);
        } finally {
          held.close();
        }
        const pdf = await t.app.inject({ method: 'GET', url: `/files/tickets/${ticketId}/ticket.pdf?token=${accessToken}` });
        expect(pdf.statusCode).toBe(200);
        expect(pdf.headers['content-type']).toBe('application/pdf');
        const someoneElse = await t.app.inject({
          method: 'GET',
          url: `/files/tickets/${ticketId}/ticket.pdf`,
          headers: { cookie: buyer.cookie },
        });
        expect(someoneElse.statusCode).toBe(404);

        // Both are told; the order's timeline and the audit log record it.
        await t.settleJobs();
        const ticketMail = await t.lastMessageTo(friend);
        expect(ticketMail.subject).toMatch(/^Your ticket for /);
        expect(ticketMail.attachments.map((one) => one.contentType)).toContain('application/pdf');
        expect(ticketMail.text).toContain(`/tickets/${ticketId}?token=${accessToken}`);
        expect((await t.lastMessageTo(buyer.email)).subject).toMatch(/^Finn Friend accepted your ticket for /);
        const timeline = await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId));
        expect(timeline.map((line) => line.kind)).toEqual(expect.arrayContaining(['transfer_sent', 'ticket_transferred']));
        const audited = await t.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.eventId, eventId), eq(auditLog.action, 'ticket.transfer')));
        expect(audited).toHaveLength(1);

        // Once accepted, the link takes nothing more.
        const again = await t.call(acceptTransfer, { ...link, name: 'Finn Again', answers: { [dietId]: 'Vegan' } });
        expect(again.body.error).toMatchObject({
          status: 'failed-precondition',
          details: { reason: 'transfer-decided', status: 'accepted' },
        });
      } finally {
        incoming.close();
      }
    } finally {
      mine.close();
    }
  });

  it('gives a signed-in recipient the ticket in My tickets, from where they may send it on', async () => {
    const { owner, buyer, eventId, ticket: sent } = await soldTicket();
    const friend = await t.signUp('Sam Signed', address('sam'));
    // The door's list, as a scanner keeps it for offline use.
    const door = await watch(url, 'checkin.attendees', { eventId }, owner.cookie);
    await t.call(transferTicket, { ticketId: sent.id, email: friend.email }, buyer.cookie);
    const link = await transferLinkIn(friend.email);
    const accepted = await t.call(acceptTransfer, { ...link, name: 'Sam Signed' }, friend.cookie);
    const { ticketId } = accepted.body.result;
    try {
      await expect
        .poll(() =>
          door
            .rows()
            .filter((row) => row.id === sent.id || row.id === ticketId)
            .map((row) => [row.holderName, row.status]),
        )
        .toEqual([
          ['Bea Buyer', 'void'],
          ['Sam Signed', 'valid'],
        ]);
    } finally {
      door.close();
    }
    const theirs = await watch(url, 'tickets.mine', {}, friend.cookie);
    try {
      await expect.poll(() => theirs.rows().map((row) => [row.id, row.receivedFrom])).toEqual([[ticketId, 'Bea Buyer']]);
    } finally {
      theirs.close();
    }
    // Sam holds it now, and may send it on (back to the buyer, even); the buyer may not.
    expect((await t.call(transferTicket, { ticketId, email: address('other') }, buyer.cookie)).body.error.status).toBe(
      'not-found',
    );
    const onward = await t.call(transferTicket, { ticketId, email: buyer.email }, friend.cookie);
    expect(onward.status, JSON.stringify(onward.body)).toBe(200);
  });

  it('shows a ticket a guest accepted on My tickets once they sign up with its address', async () => {
    const { buyer, ticket: sent } = await soldTicket();
    const to = address('gil');
    await t.call(transferTicket, { ticketId: sent.id, email: to }, buyer.cookie);
    const accepted = await t.call(acceptTransfer, { ...(await transferLinkIn(to)), name: 'Gil Guest' });
    const gil = await t.signUp('Gil Guest', to);
    const theirs = await watch(url, 'tickets.mine', {}, gil.cookie);
    try {
      await expect.poll(() => theirs.rows().map((row) => row.id)).toEqual([accepted.body.result.ticketId]);
    } finally {
      theirs.close();
    }
  });

  it('is taken back by its sender, declined by its recipient, or withdrawn by an admin, until accepted', async () => {
    const { owner, buyer, ticket: sent } = await soldTicket();
    const stranger = await t.signUp('Stan Stranger');

    const first = await t.call(transferTicket, { ticketId: sent.id, email: address('ann') }, buyer.cookie);
    // One transfer at a time.
    const second = await t.call(transferTicket, { ticketId: sent.id, email: address('ben') }, buyer.cookie);
    expect(second.body.error.details).toEqual({ reason: 'ticket-not-transferable' });
    const strangers = await t.call(cancelTransfer, { transferId: first.body.result.transferId }, stranger.cookie);
    expect(strangers.body.error.status).toBe('not-found');
    expect((await t.call(cancelTransfer, { transferId: first.body.result.transferId }, buyer.cookie)).body.result).toEqual({
      status: 'cancelled',
    });

    const declinedTo = address('dee');
    await t.call(transferTicket, { ticketId: sent.id, email: declinedTo }, buyer.cookie);
    const link = await transferLinkIn(declinedTo);
    expect((await t.call(cancelTransfer, { transferId: link.transferId, token: link.token })).body.result).toEqual({
      status: 'declined',
    });
    const late = await t.call(acceptTransfer, { ...link, name: 'Dee' });
    expect(late.body.error.details).toEqual({ reason: 'transfer-decided', status: 'declined' });

    const third = await t.call(transferTicket, { ticketId: sent.id, email: address('eve') }, buyer.cookie);
    expect((await t.call(cancelTransfer, { transferId: third.body.result.transferId }, owner.cookie)).body.result).toEqual({
      status: 'cancelled',
    });
    const [still] = await t.db.select().from(ticket).where(eq(ticket.id, sent.id));
    expect(still).toMatchObject({ status: 'valid', replacedBy: null });
  });

  it('follows the organizer’s settings, and refuses the address that holds it', async () => {
    const { owner, buyer, eventId, ticket: sent } = await soldTicket();
    expect((await t.call(transferTicket, { ticketId: sent.id, email: buyer.email }, buyer.cookie)).body.error.details).toEqual({
      reason: 'same-holder',
    });
    // The event starts in 2030: closing 720 hours before still leaves time; turned off, none.
    await t.call(configureTransfers, { eventId, enabled: true, closesHoursBeforeStart: 720 }, owner.cookie);
    expect((await t.call(transferTicket, { ticketId: sent.id, email: address('fay') }, buyer.cookie)).status).toBe(200);
    const pending = await t.db.select().from(ticketTransfer).where(eq(ticketTransfer.ticketId, sent.id));
    const link = await transferLinkIn(pending[0]!.toEmail);
    await t.call(configureTransfers, { eventId, enabled: false }, owner.cookie);
    expect((await t.call(acceptTransfer, { ...link, name: 'Fay' })).body.error.details).toEqual({ reason: 'transfers-closed' });
    expect((await t.call(cancelTransfer, { transferId: link.transferId }, buyer.cookie)).body.result.status).toBe('cancelled');
    const closed = await t.call(transferTicket, { ticketId: sent.id, email: address('gus') }, buyer.cookie);
    expect(closed.body.error.details).toEqual({ reason: 'transfers-closed' });
    // Only the event's admins change the settings.
    const notAdmin = await t.call(configureTransfers, { eventId, enabled: true }, buyer.cookie);
    expect(notAdmin.body.error.status).toMatch(/permission-denied|not-found/);
  });

  it('ends with the ticket: a refund meanwhile leaves nothing to accept, and the refund goes to the buyer', async () => {
    const { owner, buyer, orderId, ticket: sent } = await soldTicket({ price: 1500 });
    const to = address('hal');
    await t.call(transferTicket, { ticketId: sent.id, email: to }, buyer.cookie);
    const link = await transferLinkIn(to);
    const refunded = await t.call(
      refundOrder,
      { orderId, ticketIds: [sent.id], reason: 'Asked', idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.result.amount).toBe(1500);
    const incoming = await watch(url, 'tickets.incomingTransfer', { transferId: link.transferId, token: link.token });
    try {
      expect(incoming.rows()[0]?.status).toBe('void');
    } finally {
      incoming.close();
    }
    expect((await t.call(acceptTransfer, { ...link, name: 'Hal' })).body.error.details).toEqual({
      reason: 'ticket-not-transferable',
    });

    // The order's other ticket, sent and accepted: refunding it voids the recipient's ticket and pays the buyer back.
    const [other] = await t.db
      .select()
      .from(ticket)
      .where(and(eq(ticket.orderId, orderId), eq(ticket.status, 'valid')));
    const ida = address('ida');
    await t.call(transferTicket, { ticketId: other!.id, email: ida }, buyer.cookie);
    const accepted = await t.call(acceptTransfer, { ...(await transferLinkIn(ida)), name: 'Ida' });
    const { ticketId } = accepted.body.result;
    const back = await t.call(
      refundOrder,
      { orderId, ticketIds: [ticketId], reason: 'Asked', idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(back.body.result).toMatchObject({ amount: 1500, orderStatus: 'refunded' });
    const [gone] = await t.db.select().from(ticket).where(eq(ticket.id, ticketId));
    expect(gone!.status).toBe('void');
  });

  it('gives the ticket to exactly one of two accepts at once', async () => {
    const { buyer, ticket: sent } = await soldTicket();
    const to = address('ivy');
    await t.call(transferTicket, { ticketId: sent.id, email: to }, buyer.cookie);
    const link = await transferLinkIn(to);
    const answers = await Promise.all([
      t.call(acceptTransfer, { ...link, name: 'Ivy One' }),
      t.call(acceptTransfer, { ...link, name: 'Ivy Two' }),
    ]);
    expect(answers.map((one) => one.status).sort()).toEqual([200, 400]);
    const issued = await t.db.select().from(ticket).where(eq(ticket.transferredFrom, sent.id));
    expect(issued).toHaveLength(1);
  });
});
