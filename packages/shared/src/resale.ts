import { z } from 'zod';

// Resale at face value (decision 0066). A holder who cannot go offers their ticket back; once its
// type's own places are gone, the next person on the waiting list (or, without one waiting, the next
// buyer) buys it at the price the seller paid. When that order is complete the seller's ticket turns
// void, the buyer's is issued, and the seller is refunded the price less the organizer's fee. Until
// then the ticket stays valid, and the seller may take the offer back. Its callables are with the
// other tickets.* ones, in transfers.ts.

export const resaleLimits = { fee: { max: 100_000_000 } } as const;

/** What offering a ticket back gives its seller: the price they paid, the organizer's fee, and what comes back. */
export const ResaleTerms = z.object({
  price: z.number(),
  fee: z.number(),
  /** price − fee, never below 0: refunded to the card that paid once the ticket sells. */
  payout: z.number(),
  currency: z.string(),
});
export type ResaleTerms = z.infer<typeof ResaleTerms>;

/** A ticket offered back: `listed` waits for a buyer; `held` a buyer is paying for it now. */
export const ResaleState = ResaleTerms.extend({
  id: z.string(),
  status: z.enum(['listed', 'held']),
  listedAt: z.string(),
});
export type ResaleState = z.infer<typeof ResaleState>;

/** Why a ticket cannot be offered back or taken back now: the `reason` in a `failed-precondition` answer's details. */
export const resaleFailures = [
  /** Resale is off for this event, or transfers closed (resale closes with them). */
  z.object({ reason: z.literal('resale-closed') }),
  /** The ticket is void, admitted, on its way to someone else, offered already, or came by a transfer (its money is its buyer's). */
  z.object({ reason: z.literal('ticket-not-resellable') }),
  /** The organizer changed the fee since the holder was shown it: they see the new one and decide again. */
  z.object({ reason: z.literal('resale-fee-changed'), fee: z.number() }),
  /** Someone is paying for it now: it can be taken back only if their hold ends. */
  z.object({ reason: z.literal('resale-held') }),
] as const;
