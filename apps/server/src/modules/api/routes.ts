import { createCheckIn, listCheckIns } from './checkin-routes';
import { getEvent, listCodes, listEvents, listQuestions, listTicketTypes } from './event-routes';
import { getOrder, getPayment, listOrders } from './order-routes';
import { getTicket, listAttendees, listTickets } from './ticket-routes';

// The REST API's routes: thin doors onto the modules (decision 0062). Reads go through the owning
// modules' resource builders or their tables; the one write, a check-in, through the check-in
// module's own scan (the first scan of a ticket admits it, everywhere). One file per kind of thing.

export const apiRoutes = [
  listEvents,
  getEvent,
  listTicketTypes,
  listOrders,
  getOrder,
  getPayment,
  listTickets,
  getTicket,
  listAttendees,
  listCheckIns,
  createCheckIn,
  listCodes,
  listQuestions,
];
