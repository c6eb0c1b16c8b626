import { z } from 'zod';
import { messageFailures } from './attendee-messages';
import { codeFailures } from './codes';
import { eventChangeFailures } from './event-changes';
import { eventFailures } from './events';
import { orderFailures } from './orders';
import { OrgRole, orgFailures } from './orgs';
import { questionFailures } from './questions';
import { resaleFailures } from './resale';
import { ticketFailures } from './tickets';
import { transferFailures } from './transfers';
import { waitlistFailures } from './waitlist';
import { webhookFailures } from './webhooks';

/**
 * Every reason a callable gives for refusing, with its details: each capability declares its own
 * (orderFailures, eventFailures, orgFailures), and this is all of them. The server throws them
 * typed; the browser parses an error's details with it and has a message for each reason (the
 * compiler finds a reason without one).
 */
export const FailureDetails = z.discriminatedUnion('reason', [
  ...orderFailures,
  ...eventFailures,
  ...eventChangeFailures,
  ...orgFailures,
  ...ticketFailures,
  ...transferFailures,
  ...resaleFailures,
  ...messageFailures,
  ...codeFailures,
  ...questionFailures,
  ...webhookFailures,
  ...waitlistFailures,
]);
export type FailureDetails = z.infer<typeof FailureDetails>;
export type FailureReason = FailureDetails['reason'];

/** A `permission-denied` answer's details: the role needed and the caller's. */
export const PermissionDeniedDetails = z.object({ required: OrgRole, role: OrgRole });
export type PermissionDeniedDetails = z.infer<typeof PermissionDeniedDetails>;

/** The failure an error's details describe, or null when they name no known reason. */
export function failureOf(details: unknown): FailureDetails | null {
  const parsed = FailureDetails.safeParse(details);
  return parsed.success ? parsed.data : null;
}
