import { randomBytes } from 'node:crypto';

/** 128 random bits, base64url (22 characters): unguessable, and short enough for a small QR code. */
export const newTicketCode = () => randomBytes(16).toString('base64url');
