import { z } from 'zod';
import { defineCallableContract } from './callable';
import { LocalDateTime } from './dates';
import { TicketAvailabilityRow } from './events';
import { Id } from './ids';
import { defineLiveQueryContract } from './live';

// Codes an event's admins give out. An access code shows and sells hidden ticket types (press,
// crew, members) to whoever has it; a discount code takes a percentage or an amount off each
// ticket of its types; one code may do both. Either works within its limits: how many tickets may
// be bought with it in all, how many by one buyer, how few in one order, and when it works. Its
// uses are the places of its tickets: taken with them, given back with them (decision 0047).

/** Letters, digits, dash and underscore, compared without case: kept in capitals. */
export const CodeText = z
  .string()
  .trim()
  .min(3, 'At least 3 characters')
  .max(40)
  // Not starting with `-`: a spreadsheet would read the code in a CSV file as a formula.
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/, 'Letters, digits, - and _ only, starting with a letter or digit')
  .transform((code) => code.toUpperCase());

export const codeLimits = { maxUses: 100_000, maxPerBuyer: 1_000, ticketTypes: 100, minQuantity: 100 } as const;

/** Off each ticket a code applies to: a percentage of its price, or an amount (minor units of the event's currency, at most the price). */
export const Discount = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('percent'), percent: z.int().min(1).max(100) }),
  z.strictObject({ kind: z.literal('amount'), amount: z.int().min(1).max(100_000_000) }),
]);
export type Discount = z.infer<typeof Discount>;

/** What one ticket of `price` costs with the discount: never below zero, rounded to the minor unit. */
export function discountOn(price: number, discount: Discount | null): number {
  if (!discount) return 0;
  if (discount.kind === 'amount') return Math.min(price, discount.amount);
  return Math.min(price, Math.round((price * discount.percent) / 100));
}

const CodeFields = {
  code: CodeText,
  /**
   * The ticket types it is for: the hidden ones among them it unlocks, all of them it discounts.
   * None listed: a discount on every visible type of the event.
   */
  ticketTypeIds: z.array(Id).max(codeLimits.ticketTypes).default([]),
  discount: Discount.nullable().default(null),
  /** Tickets of its types an order must have for it to be used (a group discount from 4 tickets). */
  minQuantity: z.int().min(1).max(codeLimits.minQuantity).default(1),
  /** Tickets that may be bought with it, by everyone together; null: no limit. */
  maxUses: z.int().min(1).max(codeLimits.maxUses).nullable().default(null),
  /** Tickets one buyer may buy with it, across their orders; null: no limit. */
  maxPerBuyer: z.int().min(1).max(codeLimits.maxPerBuyer).nullable().default(null),
  /** When it starts and stops working, as wall-clock times in the event's time zone; null: always. */
  validFromLocal: LocalDateTime.nullable().default(null),
  validUntilLocal: LocalDateTime.nullable().default(null),
};

const windowInOrder = (input: { validFromLocal: string | null; validUntilLocal: string | null }) =>
  !input.validFromLocal || !input.validUntilLocal || input.validUntilLocal > input.validFromLocal;
const windowMessage = { path: ['validUntilLocal'], message: 'It must stop working after it starts' };
/** A code does something: it unlocks ticket types, or takes something off. */
const doesSomething = (input: { ticketTypeIds: string[]; discount: Discount | null }) =>
  input.discount !== null || input.ticketTypeIds.length > 0;
const somethingMessage = { path: ['ticketTypeIds'], message: 'Choose the hidden ticket types it unlocks, or give it a discount' };

export const CreateCodeInput = z
  .strictObject({ eventId: Id, ...CodeFields })
  .refine(windowInOrder, windowMessage)
  .refine(doesSomething, somethingMessage);
export type CreateCodeInput = z.input<typeof CreateCodeInput>;
export const createCode = defineCallableContract('codes.create', CreateCodeInput, z.object({ codeId: z.string() }));

/** The same fields; a limit below the tickets already bought with the code is refused. */
/** Letters and digits nobody reads alike (no 0 O, 1 I L): for codes made up rather than chosen. */
const codeAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A made-up code of `length` characters (8: about 10¹² of them), after an optional prefix and a dash. */
export function randomCode(prefix = '', length = 8): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  const random = Array.from(bytes, (byte) => codeAlphabet[byte % codeAlphabet.length]).join('');
  return prefix ? `${prefix}-${random}` : random;
}

/**
 * Many codes at once, each made up (after `prefix-` when given) and each with the same settings:
 * one per person of a list (members, partners), given out by the CSV export of the event's codes.
 */
export const GenerateCodesInput = z
  .strictObject({
    eventId: Id,
    count: z.int().min(2).max(1_000),
    prefix: z
      .string()
      .trim()
      .max(20)
      .regex(/^[A-Za-z0-9_]*$/, 'Letters, digits and _ only')
      .transform((prefix) => prefix.toUpperCase())
      .default(''),
    ...(({ code: _code, ...rest }) => rest)(CodeFields),
  })
  .refine(windowInOrder, windowMessage)
  .refine(doesSomething, somethingMessage);
export type GenerateCodesInput = z.input<typeof GenerateCodesInput>;
export const generateCodes = defineCallableContract('codes.generate', GenerateCodesInput, z.object({ count: z.number() }));

export const UpdateCodeInput = z
  .strictObject({ eventId: Id, codeId: Id, ...CodeFields })
  .refine(windowInOrder, windowMessage)
  .refine(doesSomething, somethingMessage);
export type UpdateCodeInput = z.input<typeof UpdateCodeInput>;
export const updateCode = defineCallableContract('codes.update', UpdateCodeInput, z.object({}));

/** Only a code no order used; one that was used is stopped instead (its window ended). */
export const deleteCode = defineCallableContract('codes.delete', z.strictObject({ eventId: Id, codeId: Id }), z.object({}));

/** A code as its event's admins manage it. */
export const EventCodeRow = z.object({
  id: z.string(),
  code: z.string(),
  ticketTypeIds: z.array(z.string()),
  discount: Discount.nullable(),
  minQuantity: z.number(),
  maxUses: z.number().nullable(),
  maxPerBuyer: z.number().nullable(),
  validFromLocal: z.string().nullable(),
  validUntilLocal: z.string().nullable(),
  /** Tickets held or sold with it now. */
  used: z.number(),
  /** Orders that ever used it: such a code is kept (stopped, not deleted). */
  orders: z.number(),
  createdAt: z.string(),
});
export type EventCodeRow = z.infer<typeof EventCodeRow>;
export const eventCodes = defineLiveQueryContract('codes.ofEvent', z.strictObject({ eventId: Id }), EventCodeRow);

/**
 * The ticket types a code is for, as a buyer with it sees them on the event's page, live: the
 * hidden ones it unlocks and the visible ones it discounts. `price` is what a ticket costs with the
 * code, `listPrice` without; `remaining` and `maxPerBuyer` already count the code's own limits. An
 * unknown code is refused (unknown-code), as is one outside its window; too many wrong codes from
 * one address in a while, `resource-exhausted` (too-many-code-attempts).
 */
export const codeTicketTypes = defineLiveQueryContract(
  'codes.ticketTypes',
  z.strictObject({ eventId: Id, code: CodeText }),
  TicketAvailabilityRow.extend({
    code: z.string(),
    listPrice: z.number(),
    /** A hidden type, shown because of the code. */
    unlocked: z.boolean(),
    discount: Discount.nullable(),
    minQuantity: z.number(),
  }),
);

export const codeFailures = [
  /** `not-found`-like, answered as `failed-precondition`: the event has no such code. */
  z.object({ reason: z.literal('unknown-code') }),
  /** The code does not work at this moment: before its window or after it. */
  z.object({
    reason: z.literal('code-not-valid-now'),
    validFrom: z.string().nullable(),
    validUntil: z.string().nullable(),
    /** The event's: where the window's times are read. */
    timeZone: z.string(),
  }),
  /** `aborted`: the code was changed while the order was made with it; the same order again sees the change. */
  z.object({ reason: z.literal('code-changed') }),
  /** Fewer uses are left on the code than tickets were asked for with it. */
  z.object({ reason: z.literal('code-used-up'), remaining: z.number() }),
  /** Fewer tickets of the code's types in the order than it needs. */
  z.object({ reason: z.literal('code-min-quantity'), minQuantity: z.number() }),
  /** The buyer has bought as many tickets with the code as one buyer may. */
  z.object({ reason: z.literal('code-buyer-limit'), limit: z.number(), have: z.number() }),
  /** `resource-exhausted`: many wrong codes came from this address lately. */
  z.object({ reason: z.literal('too-many-code-attempts'), retryAfterSeconds: z.number() }),
  /** `failed-precondition` on delete: orders used it; stop it by ending its window instead. */
  z.object({ reason: z.literal('code-in-use'), orders: z.number() }),
  /** `failed-precondition` on update: the limit is below the tickets bought with it. */
  z.object({ reason: z.literal('code-limit-below-used'), used: z.number() }),
  /** `already-exists`-like: another code of the event is written the same. */
  z.object({ reason: z.literal('code-taken') }),
  /** A ticket type named is not of this event, or is visible on a code without a discount (it would do nothing). */
  z.object({ reason: z.literal('not-hidden-type'), ticketTypeId: z.string() }),
] as const;
