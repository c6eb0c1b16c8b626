import { eventOrdersTopic, eventTopic, orgEventsTopic } from '../events/events.api';
import { topicWithKeys } from '../../platform/live/topic-keys';
import { eventTicketsTopic, userTicketsTopic } from '../tickets/tickets.api';

export { eventOrdersTopic };
/** One order: its buyer's order page and its admins' detail with the payment timeline. */
export const orderTopic = (orderId: string) => `order:${orderId}`;

/**
 * Every topic an order's change touches: the event's counts, its admins' lists, its tickets on the
 * door's list, the order itself, the buyer's tickets and, when the organization is known, its
 * organizers' events list.
 */
export function orderTopics(found: { id: string; eventId: string; buyerId: string | null }, organizationId?: string) {
  const topics = [
    eventTopic(found.eventId),
    eventOrdersTopic(found.eventId),
    orderTopic(found.id),
    // The door's list reads this order's tickets only.
    topicWithKeys(eventTicketsTopic(found.eventId), [found.id]),
  ];
  if (found.buyerId) topics.push(userTicketsTopic(found.buyerId));
  if (organizationId) topics.push(orgEventsTopic(organizationId));
  return topics;
}
