/** An event's codes: one added, changed or removed. (Their uses change with the event's places: eventTopic.) */
export const eventCodesTopic = (eventId: string) => `event:${eventId}:codes`;
