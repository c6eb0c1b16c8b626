import { OrderResource } from '@admit/shared/api-resources';
import { cancelEvent } from '@admit/shared/event-changes';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { configureWaitlist, joinWaitlist } from '@admit/shared/waitlist';
import { setTicketHolder } from '@admit/shared/tickets';
import { acceptTransfer, configureTransfers, resellTicket, transferTicket } from '@admit/shared/transfers';
import {
  createWebhook,
  pingWebhook,
  resendWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookEventType,
} from '@admit/shared/webhooks';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderResource } from '../orders/orders.api';
import { createPublishedEvent, payWithTestCard } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { startReceiver, until, verify } from '../../testing/webhook-receiver';
import { ticket } from '../tickets/schema';
import { webhookDelivery, webhookEndpoint, webhookMessage } from './schema';

describe('signed webhooks', () => {
  let t: TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let owner: Awaited<ReturnType<TestApp['signUp']>>;
  let buyer: Awaited<ReturnType<TestApp['signUp']>>;
  let organizationId: string;
  let eventId: string;
  let freeTypeId: string;
  let paidTypeId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { WEBHOOKS_RETRY_FIRST_SECONDS: '0.2' } });
    receiver = await startReceiver();
    owner = await t.signUp('Olga Owner');
    buyer = await t.signUp('Bea Buyer');
    ({
      organizationId,
      eventId,
      ticketTypeIds: [freeTypeId, paidTypeId],
    } = (await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 500 }, { name: 'Seated', capacity: 50, price: 2500 }],
    })) as unknown as { organizationId: string; eventId: string; ticketTypeIds: [string, string] });
  });

  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  async function addEndpoint(path: string, eventTypes: WebhookEventType[]) {
    const { status, body } = await t.call(createWebhook, { organizationId, url: receiver.url(path), eventTypes }, owner.cookie);
    expect(status).toBe(200);
    expect(body.result.secret).toMatch(/^whsec_/);
    return body.result;
  }

  /** How many jobs were made to deliver one endpoint's webhooks (pg-boss keeps finished ones a while). */
  async function deliveryJobsOf(endpointId: string): Promise<number> {
    const { rows } = await t.database.execute(
      `select count(*)::int as jobs from pgboss.job where name = 'webhooks.deliverEndpoint' and data ->> 'endpointId' = $1`,
      [endpointId],
    );
    return Number(rows[0]!.jobs);
  }

  it('retries a webhook the receiver answers 500 three times, with the same webhook-id and a valid signature each time', async () => {
    receiver.answer('/flaky', [500, 500, 500, 200]);
    const { endpointId, secret } = await addEndpoint('/flaky', ['order.created']);
    const ordered = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: freeTypeId, quantity: 2 }] }, buyer.cookie);
    expect(ordered.status).toBe(200);

    const got = await until(
      () => receiver.received('/flaky'),
      (requests) => requests.length >= 4,
    );
    expect(got).toHaveLength(4);
    for (const request of got) verify(secret, request);
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(1);
    const body = JSON.parse(got[3]!.body) as { type: string; timestamp: string; data: unknown };
    expect(body.type).toBe('order.created');
    const data = OrderResource.parse(body.data);
    // Written by the one statement that made the order, it is the object the API shows.
    expect(data).toEqual(await orderResource(t.db, ordered.body.result.orderId));
    expect(data).toMatchObject({ status: 'paid', total: 0, lines: [{ quantity: 2, ticket_type_id: freeTypeId }] });

    const [logged] = await until(
      () => t.db.select().from(webhookDelivery).where(eq(webhookDelivery.endpointId, endpointId)),
      (rows) => rows[0]?.status === 'delivered',
    );
    expect(logged).toMatchObject({ attempts: 4, responseStatus: 200, responseExcerpt: 'answered 200' });
    await t.call(updateWebhook, { endpointId, enabled: false }, owner.cookie);
  });

  it('reports a paid order when it is created and when its payment completes, in that order', async () => {
    const { endpointId, secret } = await addEndpoint('/paid', ['order.created', 'order.paid']);
    const ordered = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: paidTypeId, quantity: 1 }] }, buyer.cookie);
    expect(ordered.body.result.status).toBe('pending');
    await payWithTestCard(t, buyer.cookie, ordered.body.result.orderId);
    const got = await until(
      () => receiver.received('/paid'),
      (requests) => requests.length >= 2,
    );
    const bodies = got.map((request) => {
      verify(secret, request);
      return JSON.parse(request.body) as { type: string; data: { status: string; total: number } };
    });
    expect(bodies.map((body) => [body.type, body.data.status, body.data.total])).toEqual([
      ['order.created', 'pending', 2500],
      ['order.paid', 'paid', 2500],
    ]);
    await t.call(updateWebhook, { endpointId, enabled: false }, owner.cookie);
  });

  it('delivers the webhooks of one object in order: a later one waits while an earlier one is retried', async () => {
    receiver.answer('/ordered', [500, 500, 200]);
    const { endpointId } = await addEndpoint('/ordered', ['order.created', 'order.paid']);
    // A free order: order.created then order.paid, for the same order.
    await t.call(createOrder, { eventId, lines: [{ ticketTypeId: freeTypeId, quantity: 1 }] }, buyer.cookie);
    const got = await until(
      () => receiver.received('/ordered'),
      (requests) => requests.length >= 4,
    );
    expect(got.map((request) => (JSON.parse(request.body) as { type: string }).type)).toEqual([
      'order.created',
      'order.created',
      'order.created',
      'order.paid',
    ]);
    await t.call(updateWebhook, { endpointId, enabled: false }, owner.cookie);
  });

  it('sends a burst of orders in rounds: a handful of delivery jobs, not one per order, every webhook once', async () => {
    const { endpointId, secret } = await addEndpoint('/burst', ['order.created']);
    const jobsBefore = await deliveryJobsOf(endpointId);
    expect(jobsBefore).toBe(0);
    // A buyer of their own: an account's orders are limited per hour.
    const burstBuyer = await t.signUp('Burt Burst');
    const orders = 20;
    // At once, as a rush's orders come: one after another, a quick machine may finish each order's
    // delivery before the next order is written, and then each order rightly wakes a job of its own.
    const placed = await Promise.all(
      Array.from({ length: orders }, () =>
        t.call(createOrder, { eventId, lines: [{ ticketTypeId: freeTypeId, quantity: 1 }] }, burstBuyer.cookie),
      ),
    );
    for (const ordered of placed) expect(ordered.status, JSON.stringify(ordered.body)).toBe(200);
    const got = await until(
      () => receiver.received('/burst'),
      (requests) => requests.length >= orders,
    );
    for (const request of got) verify(secret, request);
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(orders);
    // Each order's statement wakes the endpoint only when no job waits for it already.
    expect(await deliveryJobsOf(endpointId)).toBeLessThan(orders / 2);
    await t.call(updateWebhook, { endpointId, enabled: false }, owner.cookie);
  });

  it('delivers a webhook whose wake-up was lost (its job had started before it was committed) within seconds', async () => {
    const { endpointId, secret } = await addEndpoint('/lost', ['order.created']);
    // Written to the outbox as emitWebhook writes it, but with no job to wake the endpoint: the sweep finds it.
    await t.db.insert(webhookMessage).values({
      id: 'msg_lostwakeup',
      organizationId,
      type: 'order.created',
      objectId: 'ord_lost',
      payload: { object: 'order', id: 'ord_lost' },
    });
    const [got] = await until(
      () => receiver.received('/lost'),
      (requests) => requests.length >= 1,
    );
    verify(secret, got!);
    expect(got!.headers['webhook-id']).toBe('msg_lostwakeup');
    await t.settleJobs();
    expect(receiver.received('/lost')).toHaveLength(1);
    await t.call(updateWebhook, { endpointId, enabled: false }, owner.cookie);
  });

  it('disables an endpoint that answers 410 Gone, which gets nothing more until an admin enables it again', async () => {
    receiver.answer('/gone', [410, 200]);
    const { endpointId } = await addEndpoint('/gone', ['order.created']);
    await t.call(createOrder, { eventId, lines: [{ ticketTypeId: freeTypeId, quantity: 1 }] }, buyer.cookie);
    const [endpoint] = await until(
      () => t.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpointId)),
      (rows) => rows[0]?.status === 'disabled',
    );
    expect(endpoint!.disabledReason).toBe('gone');
    await t.call(createOrder, { eventId, lines: [{ ticketTypeId: freeTypeId, quantity: 1 }] }, buyer.cookie);
    await t.settleJobs();
    expect(receiver.received('/gone')).toHaveLength(1);
    const [failed, ...others] = await t.db.select().from(webhookDelivery).where(eq(webhookDelivery.endpointId, endpointId));
    expect(others).toEqual([]);
    expect(failed).toMatchObject({ status: 'failed', responseStatus: 410 });

    // Enabled again, the failed one is sent again by hand, with the webhook-id it had.
    expect((await t.call(updateWebhook, { endpointId, enabled: true }, owner.cookie)).status).toBe(200);
    expect((await t.call(resendWebhook, { deliveryId: failed!.id }, owner.cookie)).status).toBe(200);
    const got = await until(
      () => receiver.received('/gone'),
      (requests) => requests.length >= 2,
    );
    expect(got[1]!.headers['webhook-id']).toBe(got[0]!.headers['webhook-id']);
    await t.call(updateWebhook, { endpointId, enabled: false }, owner.cookie);
  });

  it('signs with both secrets while a rotation overlaps, and pings on demand', async () => {
    const { endpointId, secret: before } = await addEndpoint('/rotated', ['order.created']);
    const rotated = await t.call(rotateWebhookSecret, { endpointId }, owner.cookie);
    const after = rotated.body.result.secret;
    expect(after).not.toBe(before);
    expect((await t.call(pingWebhook, { endpointId }, owner.cookie)).status).toBe(200);
    const [ping] = await until(
      () => receiver.received('/rotated'),
      (requests) => requests.length >= 1,
    );
    expect(String(ping!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verify(before, ping!);
    verify(after, ping!);
    expect(JSON.parse(ping!.body)).toMatchObject({ type: 'webhook.ping', data: { id: endpointId } });
    await t.call(updateWebhook, { endpointId, enabled: false }, owner.cookie);
  });

  it('reports a ticket’s new holder, a ticket sent on, the event’s cancellation and the refunds it makes', async () => {
    const { secret } = await addEndpoint('/changes', [
      'ticket.holder_changed',
      'ticket.transferred',
      'event.cancelled',
      'order.refunded',
    ]);
    const ordered = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: freeTypeId, quantity: 2 }] }, buyer.cookie);
    const [one, two] = await t.db.select().from(ticket).where(eq(ticket.orderId, ordered.body.result.orderId));
    expect((await t.call(setTicketHolder, { ticketId: one!.id, name: 'Gina Guest' }, buyer.cookie)).status).toBe(200);
    await t.call(transferTicket, { ticketId: two!.id, email: 'webhook-friend@example.test' }, buyer.cookie);
    await t.settleJobs();
    const link = (await t.lastMessageTo('webhook-friend@example.test')).text.match(/\/transfers\/([^?\s]+)\?token=([\w-]+)/)!;
    const accepted = await t.call(acceptTransfer, { transferId: link[1]!, token: link[2]!, name: 'Finn Friend' });
    expect(accepted.status).toBe(200);
    expect((await t.call(cancelEvent, { eventId, message: 'The roof leaks.' }, owner.cookie)).status).toBe(200);
    const got = await until(
      async () => {
        await t.settleJobs();
        return receiver.received('/changes');
      },
      (requests) => requests.some((request) => request.body.includes('"order.refunded"')),
      60_000,
    );
    const bodies = got.map((request) => {
      verify(secret, request);
      return JSON.parse(request.body) as { type: string; data: Record<string, unknown> };
    });
    expect(bodies.find((body) => body.type === 'ticket.holder_changed')?.data).toMatchObject({
      object: 'ticket',
      id: one!.id,
      holder_name: 'Gina Guest',
    });
    expect(bodies.find((body) => body.type === 'ticket.transferred')?.data).toMatchObject({
      object: 'ticket',
      id: accepted.body.result.ticketId,
      holder_name: 'Finn Friend',
      transferred_from: two!.id,
    });
    expect(bodies.find((body) => body.type === 'event.cancelled')?.data).toMatchObject({ object: 'event', status: 'cancelled' });
    expect(bodies.find((body) => body.type === 'order.refunded')?.data).toMatchObject({ object: 'order' });
  });

  it('reports a waiting list’s offer with its entry and its hold', async () => {
    const { secret } = await addEndpoint('/waitlist', ['waitlist.offered']);
    const full = await createPublishedEvent(t, owner.cookie, { organizationId, ticketTypes: [{ capacity: 1 }] });
    const [typeId] = full.ticketTypeIds;
    await t.call(configureWaitlist, { eventId: full.eventId, enabled: true }, owner.cookie);
    const taken = await t.call(
      createOrder,
      { eventId: full.eventId, lines: [{ ticketTypeId: typeId!, quantity: 1 }] },
      owner.cookie,
    );
    const joined = await t.call(joinWaitlist, { eventId: full.eventId, ticketTypeId: typeId!, quantity: 1 }, buyer.cookie);
    expect(joined.status).toBe(200);
    await t.call(
      refundOrder,
      { orderId: taken.body.result.orderId, reason: 'Cannot come', idempotencyKey: 'waitlist-webhook-1' },
      owner.cookie,
    );
    const [got] = await until(
      async () => {
        await t.settleJobs();
        return receiver.received('/waitlist');
      },
      (requests) => requests.length > 0,
    );
    verify(secret, got!);
    const body = JSON.parse(got!.body) as { type: string; data: Record<string, unknown> };
    expect(body).toMatchObject({
      type: 'waitlist.offered',
      data: {
        object: 'waitlist_entry',
        id: joined.body.result.entryId,
        event_id: full.eventId,
        status: 'offered',
        quantity: 1,
        offer: { order_id: expect.any(String), quantity: 1, hold_expires_at: expect.any(String) },
      },
    });
  });

  it('reports a ticket resold at face value, with the ticket that replaced it', async () => {
    const { secret } = await addEndpoint('/resale', ['ticket.resold']);
    const full = await createPublishedEvent(t, owner.cookie, { organizationId, ticketTypes: [{ capacity: 1 }] });
    const [typeId] = full.ticketTypeIds;
    await t.call(configureTransfers, { eventId: full.eventId, enabled: true, resaleEnabled: true }, owner.cookie);
    const taken = await t.call(
      createOrder,
      { eventId: full.eventId, lines: [{ ticketTypeId: typeId!, quantity: 1 }] },
      buyer.cookie,
    );
    const [old] = await t.db.select().from(ticket).where(eq(ticket.orderId, taken.body.result.orderId));
    expect((await t.call(resellTicket, { ticketId: old!.id, fee: 0 }, buyer.cookie)).status).toBe(200);
    // Free, and the next buyer signed in: sold at once.
    const resold = await t.call(
      createOrder,
      { eventId: full.eventId, lines: [{ ticketTypeId: typeId!, quantity: 1 }] },
      owner.cookie,
    );
    expect(resold.body.result, JSON.stringify(resold.body)).toMatchObject({ status: 'paid', ticketCount: 1 });
    const [issued] = await t.db.select().from(ticket).where(eq(ticket.orderId, resold.body.result.orderId));
    const [got] = await until(
      async () => {
        await t.settleJobs();
        return receiver.received('/resale');
      },
      (requests) => requests.length > 0,
    );
    verify(secret, got!);
    expect(JSON.parse(got!.body)).toMatchObject({
      type: 'ticket.resold',
      data: { object: 'ticket', id: old!.id, status: 'void', replaced_by: issued!.id },
    });
  });
});

describe('webhooks in production', () => {
  it('refuses addresses on private, loopback and link-local networks', async () => {
    const t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'false' } });
    try {
      const owner = await t.signUp('Olga Owner');
      const { organizationId } = await createPublishedEvent(t, owner.cookie);
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://localhost/hook',
        'http://10.1.2.3/hook',
        'http://192.168.0.10/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/hook',
        'http://[fd00::1]/hook',
      ]) {
        const { status, body } = await t.call(
          createWebhook,
          { organizationId, url, eventTypes: ['order.created'] },
          owner.cookie,
        );
        expect({ url, status, reason: body.error?.details?.reason }).toEqual({ url, status: 400, reason: 'private-address' });
      }
    } finally {
      await t.close();
    }
  });
});
