import { z } from 'zod';
import { defineCallableContract } from './callable';
import { defineLiveQueryContract } from './live';

const Id = z.string().min(1).max(64);

export const CreateOrderInput = z.strictObject({
  eventId: Id,
  lines: z
    .array(z.strictObject({ ticketTypeId: Id, quantity: z.int().min(1).max(100) }))
    .min(1)
    .max(20)
    .refine((lines) => new Set(lines.map((line) => line.ticketTypeId)).size === lines.length, {
      message: 'Each ticket type appears once',
    }),
  /** Made by the buyer's device: the same key never creates a second order. */
  idempotencyKey: z.string().min(8).max(100).optional(),
});
export type CreateOrderInput = z.input<typeof CreateOrderInput>;

export const OrderStatus = z.enum(['pending', 'paid', 'expired', 'cancelled']);
export const CreateOrderOutput = z.object({
  orderId: z.string(),
  status: OrderStatus,
  ticketCount: z.number(),
});
export const createOrder = defineCallableContract('orders.create', CreateOrderInput, CreateOrderOutput);

/** The details of a `resource-exhausted` answer when fewer tickets remain than were asked for. */
export const SoldOutDetails = z.object({
  /** Absent when the event as a whole, rather than one ticket type, has too few places left. */
  ticketTypeId: z.string().optional(),
  requested: z.number(),
  remaining: z.number(),
});
export type SoldOutDetails = z.infer<typeof SoldOutDetails>;

export const EventOrderRow = z.object({
  id: z.string(),
  eventId: z.string(),
  buyerName: z.string(),
  email: z.string(),
  status: OrderStatus,
  total: z.number(),
  currency: z.string(),
  ticketCount: z.number(),
  createdAt: z.string(),
});
export type EventOrderRow = z.infer<typeof EventOrderRow>;
export const eventOrders = defineLiveQueryContract('orders.forEvent', z.strictObject({ eventId: Id }), EventOrderRow);
