import type { Db } from '../../platform/db/database';
import type { EventCode } from '../codes/codes.api';
import type { SaleInfo } from '../events/events.api';
import { placeOrders, type OrderOutcome, type OrderRequest } from './place-order';

/** At most this many orders in one statement. */
const maxBatch = 500;

interface Waiting {
  request: OrderRequest;
  resolve(outcome: OrderOutcome): void;
  reject(error: unknown): void;
}

interface Line {
  db: Db;
  sale: SaleInfo;
  ticketTypeId: string;
  code: EventCode | null;
  heldPlacesLimit: number;
  running: boolean;
  waiting: Waiting[];
}

/**
 * Orders of one ticket type (with the same code, or none) that arrive together are made together,
 * in one statement (placeOrders): free orders complete, orders to pay as holds. While one statement
 * runs for a ticket type, the orders arriving meanwhile wait and go in the next one. So a quiet sale makes each
 * order at once, on its own, and a rush makes them by the hundred, with one commit and one turn on
 * the hot rows for each hundred instead of one for each order: the rate is no longer bound by how
 * many commits a second the database can do. Each order is still all or nothing for its buyer. Only
 * orders waiting in this process are batched; several processes each make their own batches. A
 * statement that fails fails every order of its batch, and each then takes the general path on its
 * own.
 */
const lines = new Map<string, Line>();

export function placeOrder(input: {
  db: Db;
  sale: SaleInfo;
  ticketTypeId: string;
  code: EventCode | null;
  heldPlacesLimit: number;
  request: OrderRequest;
}) {
  const key = `${input.sale.event.id} ${input.ticketTypeId} ${input.code?.id ?? ''}`;
  let line = lines.get(key);
  if (!line) {
    const { db, sale, ticketTypeId, code, heldPlacesLimit } = input;
    line = { db, sale, ticketTypeId, code, heldPlacesLimit, running: false, waiting: [] };
    lines.set(key, line);
  }
  // The newest reading of the sale and the code (at most a second old) for the next statement.
  line.sale = input.sale;
  line.code = input.code;
  line.db = input.db;
  const outcome = new Promise<OrderOutcome>((resolve, reject) => line.waiting.push({ request: input.request, resolve, reject }));
  if (!line.running) void run(key, line);
  return outcome;
}

async function run(key: string, line: Line) {
  line.running = true;
  try {
    while (line.waiting.length > 0) {
      const batch = takeBatch(line);
      try {
        const outcomes = await placeOrders({
          db: line.db,
          sale: line.sale,
          ticketTypeId: line.ticketTypeId,
          // The price of the newest reading: the statement makes nothing if the type's is another.
          price: line.sale.ticketTypes.get(line.ticketTypeId)?.price ?? 0,
          code: line.code,
          heldPlacesLimit: line.heldPlacesLimit,
          requests: batch.map((one) => one.request),
        });
        batch.forEach((one, index) => one.resolve(outcomes[index]!));
      } catch (error) {
        for (const one of batch) one.reject(error);
      }
    }
  } finally {
    line.running = false;
    if (line.waiting.length === 0) lines.delete(key);
  }
}

/**
 * The next orders to make together, in the order they came; an order repeating a buyer's
 * idempotency key already in the batch waits for the next one (the same key twice in one
 * statement would fail it whole).
 */
function takeBatch(line: Line): Waiting[] {
  const batch: Waiting[] = [];
  const later: Waiting[] = [];
  const keys = new Set<string>();
  for (const one of line.waiting) {
    const { idempotencyKey, buyer } = one.request;
    const key = idempotencyKey === null ? null : `${buyer.id} ${idempotencyKey}`;
    if (batch.length >= maxBatch || (key !== null && keys.has(key))) later.push(one);
    else {
      batch.push(one);
      if (key !== null) keys.add(key);
    }
  }
  line.waiting = later;
  return batch;
}
