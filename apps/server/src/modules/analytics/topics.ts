/** New daily analytics rows of an event, and of any event of an organization (written by the aggregation job). */
export const analyticsTopic = (eventId: string) => `event:${eventId}:analytics`;
export const analyticsOrgTopic = (organizationId: string) => `org:${organizationId}:analytics`;
