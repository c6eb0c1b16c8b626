import { z } from 'zod';

// The REST API's wire shapes (/api/v1, decision 0062), besides the event, order and ticket, which
// api-resources.ts describes for the webhooks too. Fields are snake_case; times are ISO 8601 in UTC
// (`Z`), with the event's IANA zone beside them in `time_zone`; amounts are integers in the minor
// unit of `currency`. The OpenAPI document at /api/v1/openapi.json is made from these schemas.

const Time = z.iso.datetime().describe('ISO 8601, UTC');
const Money = z.int().describe('In the minor unit of the currency (cents), never a float');
const Currency = z.string().length(3).describe('ISO 4217');
const TimeZone = z.string().describe("The event's IANA time zone, e.g. Europe/Berlin");

/** Errors, always `application/problem+json` (RFC 9457). */
export const Problem = z
  .object({
    type: z.string().describe('A URI naming the kind of problem; about:blank when the status says it all'),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    /** The request's id, as in the `x-request-id` header: what to quote when asking for help. */
    instance: z.string().optional(),
    /** For an invalid request: which fields, and why. */
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

/**
 * A page of a list. `next_cursor` is the position after its last item, on the last page too: page
 * on while `has_more`, and keep the last cursor to ask later for what changed since.
 */
export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      has_more: z.boolean(),
      next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page, or later for what changed since'),
    })
    .meta({ id });
}

/** The query of every list. */
export const ListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('Items per page, 1 to 500'),
  cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page'),
  updated_since: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Only items changed at or after this time (incremental sync); lists are ordered by `updated_at`, then `id`'),
});
export type ListQuery = z.output<typeof ListQuery>;

export const TicketTypeResource = z
  .object({
    id: z.string(),
    object: z.literal('ticket_type'),
    event_id: z.string(),
    name: z.string(),
    price: Money,
    currency: Currency,
    capacity: z.int(),
    sold: z.int(),
    held: z.int(),
    max_per_order: z.int(),
    max_per_buyer: z.int().nullable(),
    sales_start: Time.nullable(),
    sales_end: Time.nullable(),
    hidden: z.boolean(),
    position: z.int(),
    time_zone: TimeZone,
    updated_at: Time,
  })
  .meta({ id: 'TicketType' });
export type TicketTypeResource = z.infer<typeof TicketTypeResource>;

/** An answer to one of the event's questions, as the ticket carries it. */
export const AnswerResource = z
  .object({
    question_id: z.string(),
    label: z.string().describe("The question's current label"),
    value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
  })
  .meta({ id: 'Answer' });

/** A valid ticket's attendee: who comes, with what, and whether they are in. */
export const AttendeeResource = z
  .object({
    id: z.string().describe('The ticket id'),
    object: z.literal('attendee'),
    event_id: z.string(),
    order_id: z.string(),
    ticket_type_id: z.string(),
    ticket_type_name: z.string(),
    name: z.string(),
    email: z.string(),
    answers: z.array(AnswerResource),
    checked_in_at: Time.nullable(),
    time_zone: TimeZone,
    updated_at: Time,
  })
  .meta({ id: 'Attendee' });
export type AttendeeResource = z.infer<typeof AttendeeResource>;

export const CheckInResult = z
  .enum(['accepted', 'duplicate', 'void', 'unknown'])
  .describe('accepted: let in now (first scan); duplicate: let in before; void: refunded or cancelled; unknown: no such ticket');
export const CheckInResource = z
  .object({
    id: z.string(),
    object: z.literal('check_in'),
    event_id: z.string(),
    ticket_id: z.string().nullable(),
    device: z.string(),
    result: CheckInResult,
    scanned_at: Time,
    undone_at: Time.nullable(),
    time_zone: TimeZone,
    updated_at: Time,
  })
  .meta({ id: 'CheckIn' });
export type CheckInResource = z.infer<typeof CheckInResource>;

/** A scan from another scanner: the first scan of a valid ticket admits it, any later one is a duplicate. */
export const CreateCheckInBody = z
  .strictObject({
    code: z.string().trim().min(1).max(200).describe("The ticket's code, as its QR code carries it"),
    device: z.string().trim().min(1).max(60).default('API').describe('What the scanner calls itself ("Door 2")'),
    scanned_at: z.iso.datetime({ offset: true }).optional().describe('When the person was scanned; now when left out'),
  })
  .meta({ id: 'CreateCheckIn' });
export const CreateCheckInResult = z
  .object({
    check_in: CheckInResource,
    /** For a duplicate: when the ticket was first let in, and by which scanner. */
    first_check_in: z.object({ at: Time, device: z.string() }).nullable(),
  })
  .meta({ id: 'CheckInCreated' });
export type CreateCheckInResult = z.infer<typeof CreateCheckInResult>;

export const CodeResource = z
  .object({
    id: z.string(),
    object: z.literal('code'),
    event_id: z.string(),
    code: z.string(),
    ticket_type_ids: z.array(z.string()),
    discount_percent: z.int().nullable(),
    discount_amount: Money.nullable(),
    currency: Currency,
    min_quantity: z.int(),
    max_uses: z.int().nullable(),
    max_per_buyer: z.int().nullable(),
    valid_from: Time.nullable(),
    valid_until: Time.nullable(),
    created_at: Time,
    time_zone: TimeZone,
    updated_at: Time,
  })
  .meta({ id: 'Code' });
export type CodeResource = z.infer<typeof CodeResource>;

export const QuestionResource = z
  .object({
    id: z.string(),
    object: z.literal('question'),
    event_id: z.string(),
    position: z.int(),
    kind: z.string(),
    label: z.string(),
    help: z.string(),
    required: z.boolean(),
    options: z.array(z.string()),
    ticket_type_ids: z.array(z.string()),
    on_scanner: z.boolean(),
    updated_at: Time,
  })
  .meta({ id: 'Question' });
export type QuestionResource = z.infer<typeof QuestionResource>;

/** What was paid for an order, and what was given back. */
export const PaymentResource = z
  .object({
    object: z.literal('payment'),
    order_id: z.string(),
    provider: z.string().nullable(),
    provider_ref: z.string().nullable(),
    status: z.enum(['none', 'pending', 'paid', 'refunded', 'partially_refunded', 'expired', 'cancelled']),
    amount: Money,
    refunded_amount: Money,
    currency: Currency,
    refunds: z.array(
      z.object({
        id: z.string(),
        amount: Money,
        status: z.string(),
        reason: z.string(),
        created_at: Time,
      }),
    ),
    time_zone: TimeZone,
    updated_at: Time,
  })
  .meta({ id: 'Payment' });
export type PaymentResource = z.infer<typeof PaymentResource>;
