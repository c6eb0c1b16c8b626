/** An organization's API keys: one made, used (its last use) or revoked. */
export const orgApiKeysTopic = (organizationId: string) => `org:${organizationId}:api-keys`;
