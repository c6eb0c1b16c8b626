/** A person's tickets (My tickets): changed when an order of theirs completes or is refunded. */
export const userTicketsTopic = (userId: string) => `user:${userId}:tickets`;

/**
 * The tickets of an event (its door's attendee list): published with the ids of the orders whose
 * tickets changed (topicWithKeys), so that a list of 50,000 reads only those orders' tickets.
 */
export const eventTicketsTopic = (eventId: string) => `event:${eventId}:tickets`;
