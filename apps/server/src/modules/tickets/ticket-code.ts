import { createHmac, randomBytes } from 'node:crypto';

/**
 * A new ticket code signed with its event's check-in key (`@admit/shared/ticket-code` says how, and
 * checks it): 96 random bits and a 72-bit signature, 28 characters, small enough for a small QR code.
 */
export function newTicketCode(checkinKey: string): string {
  const random = randomBytes(12).toString('base64url');
  const signature = createHmac('sha256', checkinKey).update(random).digest().subarray(0, 9).toString('base64url');
  return random + signature;
}
