import type { Config } from '../../platform/config';
import { linkToken, linkTokenOpens } from '../../platform/auth/link-tokens';

// Who holds a ticket (decision 0065): its order's buyer (by their session, or a guest by their
// order's token) until it is sent on; afterwards the person it was issued to (by their session when
// they accepted signed in, or by the ticket's own token, emailed to them). The buyer keeps the order
// and its money, but not a ticket they gave away.

/** The token of a ticket's own link: how a guest who was sent it gets back to it. */
export const ticketAccessToken = (config: Pick<Config, 'AUTH_SECRET'>, ticketId: string) =>
  linkToken(config, 'ticket holder', ticketId);

/** Whether the token is the one of this ticket's own link. */
export const ticketTokenOpens = (config: Pick<Config, 'AUTH_SECRET'>, ticketId: string, token: string | undefined) =>
  linkTokenOpens(config, 'ticket holder', ticketId, token);

/** The token of a transfer's link: how its recipient opens it. */
export const transferToken = (config: Pick<Config, 'AUTH_SECRET'>, transferId: string) =>
  linkToken(config, 'ticket transfer', transferId);

export const transferTokenOpens = (config: Pick<Config, 'AUTH_SECRET'>, transferId: string, token: string | undefined) =>
  linkTokenOpens(config, 'ticket transfer', transferId, token);

export interface HeldTicket {
  ticket: { id: string; transferredFrom: string | null; holderUserId: string | null };
  order: { id: string; buyerId: string | null };
}

/**
 * Whether the caller holds the ticket: by their session, or by a token (an order's, which opens the
 * tickets its buyer still holds; or the ticket's own).
 */
export function holdsTicket(
  config: Pick<Config, 'AUTH_SECRET'>,
  caller: {
    userId: string | null;
    accessToken: string | undefined;
    orderTokenOpens: (orderId: string, token: string) => boolean;
  },
  found: HeldTicket,
): boolean {
  const { userId, accessToken } = caller;
  if (found.ticket.transferredFrom !== null)
    return (userId !== null && found.ticket.holderUserId === userId) || ticketTokenOpens(config, found.ticket.id, accessToken);
  return (
    (userId !== null && found.order.buyerId === userId) ||
    (accessToken !== undefined && caller.orderTokenOpens(found.order.id, accessToken))
  );
}
