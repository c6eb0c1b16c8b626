import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { readOutbox } from './support/outbox';
import { signUpAndVerify } from './support/sign-in';

describe('a fan sends their ticket to a friend, who takes it without an account', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let buyer: Page;
  let friend: Page;
  let eventId = '';
  let ticketTypeId = '';
  let questionId = '';
  let orderId = '';
  let oldCode = '';
  let newCode = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    buyer = await journey.newPage({ viewport: { width: 390, height: 844 } });
    friend = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('lets the organizer keep transfers on, until two hours before the start', async () => {
    await signUpAndVerify(organizer, { name: 'Olga Organizer', email: 'olga.transfers@example.test' });
    // Making the event is other screens' work: it is done through their callables.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Lighthouse' });
    ({ eventId } = await callAs(organizer)<{ eventId: string }>('events.create', {
      organizationId,
      title: 'Quartet at the Lighthouse',
      venue: 'The Lighthouse, Kiel',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-09-20T20:00',
      endsAtLocal: '2030-09-20T22:00',
      capacity: 50,
    }));
    ({ ticketTypeId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 50,
      price: 0,
    }));
    // Asked of whoever comes: the friend answers it when they accept.
    ({ questionId } = await callAs(organizer)<{ questionId: string }>('questions.create', {
      eventId,
      kind: 'text',
      label: 'Name for the badge',
      required: true,
    }));
    await callAs(organizer)('events.publish', { eventId });

    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Quartet at the Lighthouse', level: 1 }).waitFor();
    await organizer.getByRole('button', { name: 'Event actions' }).click();
    await organizer.getByRole('menuitem', { name: 'Transfers' }).click();
    await organizer.getByRole('heading', { name: /^Ticket transfers/, level: 1 }).waitFor();
    const allowed = organizer.getByRole('switch', { name: 'Let ticket holders send tickets to someone else' });
    expect(await allowed.isChecked()).toBe(true);
    await organizer.getByRole('textbox', { name: 'Until how many hours before the start' }).fill('2');
    await organizer.getByRole('button', { name: 'Save' }).click();
    await organizer.getByText(/^Transfers close on .*6:00 PM/).waitFor();
    await organizer.getByText('No tickets have been sent on yet.').waitFor();
  });

  it('lets the buyer send their ticket from My tickets on a phone', async () => {
    await signUpAndVerify(buyer, { name: 'Bruno Buyer', email: 'bruno.buyer@example.test' });
    ({ orderId } = await callAs(buyer)<{ orderId: string }>('orders.create', {
      eventId,
      lines: [{ ticketTypeId, quantity: 1, answers: [{ [questionId]: 'Bruno' }] }],
    }));
    await buyer.goto('/tickets');
    const send = buyer.getByRole('button', { name: 'Send to someone: the Standing ticket' });
    await send.waitFor();
    await buyer.getByText(/^You can send it to someone else until .*6:00 PM/).waitFor();
    oldCode = (await buyer.locator('code').first().textContent()) ?? '';
    expect(oldCode).not.toBe('');

    await send.click();
    const dialog = buyer.getByRole('dialog', { name: 'Send your Standing ticket to someone' });
    const address = dialog.getByRole('textbox', { name: 'Their email address' });
    await address.fill('friend@');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await dialog.getByText('Enter a valid email address.').waitFor();
    // The server's refusal, in words: the buyer's own address holds the ticket already.
    await address.fill('bruno.buyer@example.test');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await dialog
      .getByRole('alert')
      .getByText(/already held by that email address/)
      .waitFor();
    await address.fill('friend@example.test');
    await screenshots(buyer, 'transfer-dialog');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await buyer.getByText('Waiting for friend@example.test to accept this ticket.').waitFor();
    // The ticket is still the buyer's until the friend accepts: its code still shows.
    await buyer.getByRole('img', { name: `QR code of ticket ${oldCode}` }).waitFor();
    await buyer.getByRole('button', { name: 'Cancel the transfer of the Standing ticket' }).waitFor();
    await screenshots(buyer, 'transfer-my-tickets');

    // The order page says the same, and would let the buyer take it back.
    await buyer.goto(`/orders/${orderId}`);
    await buyer.getByText('Waiting for friend@example.test to accept this ticket.').waitFor();
    await screenshots(buyer, 'transfer-order-pending');
    await organizer
      .getByRole('row', { name: /friend@example\.test/ })
      .getByText('Waiting')
      .waitFor();
  });

  it('lets the friend, not signed in, accept it from the emailed link with their name and the answer asked', async () => {
    await friend.goto(await transferLinkTo(friend, 'friend@example.test'));
    await friend.getByRole('heading', { name: 'Bruno Buyer sent you a ticket', level: 1 }).waitFor();
    await friend.getByText('Quartet at the Lighthouse').waitFor();
    await friend.getByText(/^Accept it by .*6:00 PM/).waitFor();
    const accept = friend.getByRole('button', { name: 'Accept the ticket' });
    await accept.click();
    // Nothing typed: the name and the required answer are asked for, the first of them focused.
    await friend.getByText('This field is required.').waitFor();
    await friend.getByText('Answer this question.').waitFor();
    expect(await friend.evaluate(() => document.activeElement?.id)).toBe('accept-name');
    expect(await accessibilityViolations(friend)).toEqual([]);
    await friend.getByRole('textbox', { name: 'Your name' }).fill('Frida Friend');
    await friend.getByRole('textbox', { name: 'Name for the badge' }).fill('Frida');
    await screenshots(friend, 'transfer-accept');
    await accept.click();

    await friend.waitForURL(/\/tickets\/[^/?]+\?token=/);
    await friend.getByRole('heading', { name: 'Your ticket', level: 1 }).waitFor();
    await friend.getByText('From Bruno Buyer').waitFor();
    await friend.getByText('Frida Friend').waitFor();
    const qr = friend.getByRole('img', { name: /^QR code of ticket / });
    await qr.waitFor();
    newCode = (await friend.locator('code').first().textContent()) ?? '';
    expect(newCode).not.toBe('');
    expect(newCode).not.toBe(oldCode);
    const pdf = friend.getByRole('link', { name: 'Download the ticket (PDF)' });
    const response = await friend.request.get((await pdf.getAttribute('href')) ?? '');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect(await accessibilityViolations(friend)).toEqual([]);
    await screenshots(friend, 'transfer-held-ticket');
  });

  it('tells the buyer to whom the ticket went, and takes it off their tickets', async () => {
    // Live, on the order page the buyer left open.
    await buyer.getByText('Sent to Frida Friend').waitFor();
    await buyer.getByText(/^You sent every ticket of this order on/).waitFor();
    expect(await buyer.getByRole('link', { name: 'Download tickets (PDF)' }).count()).toBe(0);
    expect(await buyer.getByRole('button', { name: /Send to someone/ }).count()).toBe(0);
    await screenshots(buyer, 'transfer-order-sent');
    await buyer.goto('/tickets');
    await buyer.getByRole('heading', { name: 'No tickets yet' }).waitFor();
    expect(await buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(0);

    const row = organizer.getByRole('row', { name: /friend@example\.test/ });
    await row.getByText('Accepted').waitFor();
    await row.getByText('Frida Friend').waitFor();
    await screenshots(organizer, 'transfer-organizer');
    // The order's timeline tells the story.
    await row.getByRole('link').click();
    await organizer.getByText(/^Ticket \w+ sent to friend@example\.test, waiting for them to accept$/).waitFor();
    await organizer.getByText('Frida Friend accepted the ticket from Bruno Buyer: it has a new code').waitFor();
  });

  it('lets the friend send it on, take it back, and the next person decline it', async () => {
    const heldUrl = friend.url();
    const sendTo = async (email: string) => {
      await friend.getByRole('button', { name: 'Send to someone: the Standing ticket' }).click();
      const dialog = friend.getByRole('dialog', { name: 'Send your Standing ticket to someone' });
      await dialog.getByRole('textbox', { name: 'Their email address' }).fill(email);
      await dialog.getByRole('button', { name: 'Send', exact: true }).click();
      await friend.getByText(`Waiting for ${email} to accept this ticket.`).waitFor();
    };
    await sendTo('dora@example.test');
    await friend.getByRole('button', { name: 'Cancel the transfer of the Standing ticket' }).click();
    await friend.getByText(/^You can send it to someone else until /).waitFor();
    await sendTo('dora@example.test');

    // The newest email to Dora is the second transfer's (the first one's may not have gone out at all:
    // a transfer taken back before its email is sent sends none). Its page offers the ticket.
    const decline = friend.getByRole('button', { name: 'Decline' });
    await expect
      .poll(
        async () => {
          await friend.goto(await transferLinkTo(friend, 'dora@example.test'));
          return decline.waitFor({ timeout: 2_000 }).then(
            () => true,
            () => false,
          );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await friend.getByRole('heading', { name: 'Frida Friend sent you a ticket', level: 1 }).waitFor();
    await decline.click();
    await friend
      .getByRole('dialog', { name: 'Decline this ticket?' })
      .getByRole('button', { name: 'Decline the ticket' })
      .click();
    await friend.getByText('You declined this ticket').waitFor();

    // The ticket stayed with Frida, who may send it again.
    await friend.goto(heldUrl);
    await friend.getByText(/^You can send it to someone else until /).waitFor();
    await organizer.goto(`/manage/events/${eventId}/transfers`);
    const rows = organizer.getByRole('row', { name: /dora@example\.test/ });
    await expect
      .poll(() => rows.allTextContents())
      .toEqual([expect.stringMatching(/Declined/), expect.stringMatching(/Cancelled/)]);
  });

  it('turns the old code away at the door and lets the new one in', async () => {
    const scan = (code: string, key: string) =>
      callAs(organizer)<{ result: string }>('checkin.scan', {
        eventId,
        code,
        device: 'Door 1',
        scannedAt: new Date().toISOString(),
        idempotencyKey: key,
      });
    expect((await scan(oldCode, 'transfer-old-code')).result).toBe('void');
    expect((await scan(newCode, 'transfer-new-code')).result).toBe('accepted');
  });
});

/** The transfer's link in the newest email to `email`, waiting a little for it. */
async function transferLinkTo(page: Page, email: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const message = (await readOutbox(page)).find((one) => one.to === email);
    const link = message?.text.match(/https?:\/\/\S+\/transfers\/\S+/)?.[0];
    if (link) return link;
    await page.waitForTimeout(100);
  }
  throw new Error(`No transfer link for ${email}`);
}
