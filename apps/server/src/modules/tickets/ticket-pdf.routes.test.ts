import type { CallableContract } from '@admit/shared/callable';
import { confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { addMember, createPublishedEvent } from '../../testing/fixtures';
import { pdfPagesText } from '../../testing/pdf-text';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ticket } from './schema';

let t: TestApp;
let owner: Awaited<ReturnType<TestApp['signUp']>>;
let buyer: Awaited<ReturnType<TestApp['signUp']>>;
let paid: { orderId: string; slug: string; organizationId: string; codes: string[] };

async function expectOk<C extends CallableContract>(
  contract: C,
  data: z.input<C['input']>,
  cookie: string,
): Promise<z.output<C['output']>> {
  const { status, body } = await t.call(contract, data, cookie);
  if (status !== 200) throw new Error(`${contract.name} failed: ${status} ${JSON.stringify(body)}`);
  return body.result;
}

const placeOrder = (eventId: string, ticketTypeId: string, quantity: number) =>
  expectOk(createOrder, { eventId, lines: [{ ticketTypeId, quantity }] }, buyer.cookie);

const getPdf = (orderId: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url: `/files/orders/${orderId}/tickets.pdf`, headers: cookie ? { cookie } : {} });

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp('Olga Organizer');
  buyer = await t.signUp('Bob Buyer');
  const { eventId, slug, organizationId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    ticketTypes: [{ name: 'Standing', capacity: 20, price: 2500 }],
  });
  const { orderId } = await placeOrder(eventId, ticketTypeIds[0]!, 3);
  const { clientSecret } = await expectOk(startPayment, { orderId }, buyer.cookie);
  await expectOk(sandboxConfirm, { clientSecret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }, buyer.cookie);
  await expectOk(confirmPayment, { orderId }, buyer.cookie);
  const tickets = await t.db.select({ code: ticket.code }).from(ticket).where(eq(ticket.orderId, orderId));
  paid = { orderId, slug, organizationId, codes: tickets.map(({ code }) => code) };
});
afterAll(() => t?.close());

describe('GET /files/orders/:orderId/tickets.pdf', () => {
  it("gives the buyer their order's tickets as a PDF download, one page per ticket", async () => {
    const response = await getPdf(paid.orderId, buyer.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${paid.slug}-tickets.pdf"`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const pages = await pdfPagesText(new Uint8Array(response.rawPayload));
    expect(pages).toHaveLength(3);
    expect(paid.codes.every((code) => pages.some((page) => page.includes(code)))).toBe(true);
  });

  it('writes the PDF in the language of the person asking', async () => {
    const response = await getPdf(paid.orderId, `${buyer.cookie}; admit.locale=de`);
    const [first] = await pdfPagesText(new Uint8Array(response.rawPayload));
    expect(first).toContain('Ticket 1 von 3');
    expect(first).toContain('Für Bob Buyer');
  });

  it('leaves out tickets that are void', async () => {
    await t.db.update(ticket).set({ status: 'void' }).where(eq(ticket.code, paid.codes[2]!));
    try {
      const pages = await pdfPagesText(new Uint8Array((await getPdf(paid.orderId, buyer.cookie)).rawPayload));
      expect(pages).toHaveLength(2);
      expect(pages.join('\n')).not.toContain(paid.codes[2]);
    } finally {
      await t.db.update(ticket).set({ status: 'valid' }).where(eq(ticket.code, paid.codes[2]!));
    }
  });

  it("gives the organization's owners and admins the PDF too", async () => {
    expect((await getPdf(paid.orderId, owner.cookie)).statusCode).toBe(200);
    const admin = await t.signUp('Ada Admin');
    await addMember(t, paid.organizationId, admin.user.id, 'admin');
    const response = await getPdf(paid.orderId, admin.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
  });

  it('answers 404 to door staff and to anyone else, as for an order that does not exist', async () => {
    const staff = await t.signUp('Sam Staff');
    await addMember(t, paid.organizationId, staff.user.id, 'staff');
    const stranger = await t.signUp('Sue Stranger');
    for (const cookie of [staff.cookie, stranger.cookie]) {
      const response = await getPdf(paid.orderId, cookie);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'No such tickets' } });
    }
    expect((await getPdf('00000000-0000-0000-0000-000000000000', buyer.cookie)).statusCode).toBe(404);
  });

  it('answers 401 to someone who is not signed in', async () => {
    const response = await getPdf(paid.orderId);
    expect(response.statusCode).toBe(401);
    expect(response.json().error.status).toBe('UNAUTHENTICATED');
  });

  it('answers 404 for an order with no valid tickets, such as one not paid yet', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 5, price: 1000 }],
    });
    const { orderId } = await placeOrder(eventId, ticketTypeIds[0]!, 1);
    expect((await getPdf(orderId, buyer.cookie)).statusCode).toBe(404);
  });
});
