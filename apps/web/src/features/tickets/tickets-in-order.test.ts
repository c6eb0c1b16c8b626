import { describe, expect, it } from 'vitest';
import { ticketsInOrder } from './tickets-in-order';

const now = Date.parse('2026-06-01T12:00:00Z');
const ticket = (id: string, status: 'valid' | 'void', startsAt: string, endsAt: string) => ({ id, status, startsAt, endsAt });

describe('my tickets in order', () => {
  it('lists tickets that admit someone first, events to come soonest first, then ended events latest first', () => {
    const tickets = [
      ticket('ended-long-ago', 'valid', '2026-01-10T19:00:00Z', '2026-01-10T23:00:00Z'),
      ticket('refunded-soon', 'void', '2026-06-05T19:00:00Z', '2026-06-05T23:00:00Z'),
      ticket('later', 'valid', '2026-09-01T19:00:00Z', '2026-09-01T23:00:00Z'),
      ticket('ended-recently', 'valid', '2026-05-20T19:00:00Z', '2026-05-20T23:00:00Z'),
      ticket('soon', 'valid', '2026-06-05T19:00:00Z', '2026-06-05T23:00:00Z'),
      ticket('today-under-way', 'valid', '2026-06-01T10:00:00Z', '2026-06-01T18:00:00Z'),
    ];
    expect(ticketsInOrder(tickets, now).map((one) => one.id)).toEqual([
      'today-under-way',
      'soon',
      'later',
      'ended-recently',
      'ended-long-ago',
      'refunded-soon',
    ]);
  });
});
