import { z } from 'zod';
import { defineLiveQueryContract } from './live';

export const TicketStatus = z.enum(['valid', 'void']);

export const MyTicketRow = z.object({
  id: z.string(),
  code: z.string(),
  status: TicketStatus,
  holderName: z.string(),
  ticketTypeName: z.string(),
  orderId: z.string(),
  eventId: z.string(),
  eventSlug: z.string(),
  eventTitle: z.string(),
  venue: z.string(),
  timeZone: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  checkedInAt: z.string().nullable(),
});
export type MyTicketRow = z.infer<typeof MyTicketRow>;
export const myTickets = defineLiveQueryContract('tickets.mine', z.strictObject({}), MyTicketRow);
