/** Every scan and undo at an event's doors: counts, the attendee list's admissions, the latest scans. */
export const checkInsTopic = (eventId: string) => `event:${eventId}:checkins`;
