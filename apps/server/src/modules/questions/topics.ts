/** An event's questions: one added, changed, moved or removed. */
export const eventQuestionsTopic = (eventId: string) => `event:${eventId}:questions`;
/** The questions whose answers the door shows: one marked or unmarked, or a marked one changed, moved or removed. */
export const doorQuestionsTopic = (eventId: string) => `event:${eventId}:door-questions`;
