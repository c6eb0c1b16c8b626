// The change topics of events. A write publishes the topics it changed; a live query names the
// topics it depends on; both call these functions, so a topic is spelled in one place.

/** An event's row and its ticket types, with their counts of places: every sale, refund and import changes it. */
export const eventTopic = (eventId: string) => `event:${eventId}`;
/** The events of an organization (its organizers' lists). */
export const orgEventsTopic = (organizationId: string) => `org:${organizationId}:events`;
/** Which events are published (the public list). */
export const publishedEventsTopic = 'events:published';
/** The orders of an event (its admins' list): every order of it, and the event's own end, change it. */
export const eventOrdersTopic = (eventId: string) => `event:${eventId}:orders`;
