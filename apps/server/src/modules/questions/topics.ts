/** An event's questions: one added, changed, moved or removed. */
export const eventQuestionsTopic = (eventId: string) => `event:${eventId}:questions`;
