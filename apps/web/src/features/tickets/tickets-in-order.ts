import type { MyTicketRow } from '@admit/shared/tickets';

type Ordered = Pick<MyTicketRow, 'id' | 'status' | 'startsAt' | 'endsAt'>;

/**
 * My tickets as a person looks for them: tickets that admit someone before refunded ones; within
 * each, events to come (the soonest first) before events that have ended (the latest first).
 */
export function ticketsInOrder<T extends Ordered>(tickets: readonly T[], now: number): T[] {
  const rank = (ticket: T) => {
    const ended = Date.parse(ticket.endsAt) < now;
    const starts = Date.parse(ticket.startsAt);
    return [ticket.status === 'valid' ? 0 : 1, ended ? 1 : 0, ended ? -starts : starts] as const;
  };
  return tickets
    .map((ticket) => ({ ticket, rank: rank(ticket) }))
    .sort(
      (a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.rank[2] - b.rank[2] || (a.ticket.id < b.ticket.id ? -1 : 1),
    )
    .map(({ ticket }) => ticket);
}
