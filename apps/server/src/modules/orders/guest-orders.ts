import { randomUUID } from 'node:crypto';
import type { Locale } from '@admit/shared/locales';
import type { Tx } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import { takePlaces } from '../events/events.api';
import { issueTicketsForOrders } from '../tickets/tickets.api';
import { canReceiveMail } from '../../platform/mail/can-receive-mail';
import { sendConfirmationJob } from './order-emails';
import { order, orderActivity, orderLine } from './schema';

/** One guest of a guest list: a complimentary order of `quantity` tickets of one type. */
export interface Guest {
  orderId: string;
  name: string;
  /** Empty for a guest without an address (a plus-one). */
  email: string;
  ticketTypeId: string;
  quantity: number;
  note: string | null;
}

/**
 * Gives guests their complimentary orders, paid at 0, with their tickets: the places are taken
 * while free (never to a cancelled or ended event), or nothing at all is written (SoldOut). Many
 * guests in a few statements, however long the list. The caller's transaction commits them.
 */
export async function createGuestOrders(
  tx: Tx,
  input: {
    event: { id: string; currency: string; checkinKey: string };
    guests: readonly Guest[];
    actorId: string;
    locale: Locale;
    /** Emails each guest with an address their tickets (a job per order, enqueued with them). */
    emailTickets?: JobSender;
  },
): Promise<void> {
  const { event, guests } = input;
  if (guests.length === 0) return;
  await takePlaces(tx, {
    eventId: event.id,
    lines: guests,
    as: 'sold',
    eventStatuses: ['draft', 'published', 'sales_closed'],
  });
  await tx.insert(order).values(
    guests.map((guest) => ({
      id: guest.orderId,
      eventId: event.id,
      buyerId: null,
      buyerName: guest.name,
      email: guest.email,
      status: 'paid' as const,
      total: 0,
      currency: event.currency,
      paymentProvider: 'import',
      locale: input.locale,
    })),
  );
  await tx.insert(orderLine).values(
    guests.map((guest) => ({
      id: randomUUID(),
      orderId: guest.orderId,
      ticketTypeId: guest.ticketTypeId,
      quantity: guest.quantity,
      unitPrice: 0,
    })),
  );
  await tx.insert(orderActivity).values(
    guests.map((guest) => ({
      id: randomUUID(),
      orderId: guest.orderId,
      kind: 'created' as const,
      detail: { total: 0, tickets: guest.quantity, source: 'import', note: guest.note },
      actorId: input.actorId,
    })),
  );
  await issueTicketsForOrders(tx, {
    event,
    orders: guests.map((guest) => ({
      orderId: guest.orderId,
      tickets: [{ ticketTypeId: guest.ticketTypeId, quantity: guest.quantity, holderName: guest.name, holderEmail: guest.email }],
    })),
  });
  // A guest without an address (a plus-one) has nobody to email.
  await input.emailTickets?.enqueueMany(
    tx,
    sendConfirmationJob,
    guests.filter((guest) => canReceiveMail(guest.email)).map((guest) => ({ orderId: guest.orderId })),
  );
}
