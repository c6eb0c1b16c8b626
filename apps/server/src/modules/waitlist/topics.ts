/** An event's waiting list: an entry joined, left, removed or offered (positions move for everyone on it). */
export const waitlistTopic = (eventId: string) => `event:${eventId}:waitlist`;
