/** An event's messages to its attendees: each one sent, and how far its sending has come. */
export const eventMessagesTopic = (eventId: string) => `event:${eventId}:messages`;
