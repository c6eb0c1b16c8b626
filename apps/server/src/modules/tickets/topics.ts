/** A person's tickets (My tickets): changed when an order of theirs completes or is refunded. */
export const userTicketsTopic = (userId: string) => `user:${userId}:tickets`;

/**
 * The tickets of an event (its door's attendee list): published with the ids of the orders whose
 * tickets changed (topicWithKeys), so that a list of 50,000 reads only those orders' tickets.
 */
export const eventTicketsTopic = (eventId: string) => `event:${eventId}:tickets`;

/** One ticket, as its holder's page shows it (a guest who was sent it has no My tickets). */
export const ticketTopic = (ticketId: string) => `ticket:${ticketId}`;

/** An event's transfers and their settings: its admins' list. */
export const eventTransfersTopic = (eventId: string) => `event:${eventId}:transfers`;

/** One transfer, as its recipient's page shows it. */
export const transferTopic = (transferId: string) => `transfer:${transferId}`;
