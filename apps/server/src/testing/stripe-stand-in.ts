import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

// The local stand-in for Stripe's API (the real SDK is pointed at it): the few endpoints Admit
// calls, answered in Stripe's shapes. One file, as one fake server is easier to read whole.

/** A PaymentIntent as the stand-in keeps and answers it: the fields of Stripe's object we read. */
export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded';
  client_secret: string;
  metadata: Record<string, string>;
  description: string | null;
  receipt_email: string | null;
  latest_charge: string | null;
  next_action: { type: 'use_stripe_sdk' } | null;
  last_payment_error: { type: 'card_error'; code: 'card_declined'; message: string } | null;
  created: number;
  livemode: false;
}

/** A refund as the stand-in keeps and answers it. */
export interface StandInRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

/** One request as it reached the stand-in, for tests that assert what the SDK really sent. */
export interface LoggedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
}

/**
 * How an outage looks: `drop` closes every connection unanswered (Stripe unreachable), `error`
 * answers 503 with Stripe's error body (Stripe failing), `rate-limit` answers 429.
 */
export type StandInOutage = 'drop' | 'error' | 'rate-limit';

export interface StripeStandIn {
  /** For `createStripeProvider({ apiBase })`: the real SDK then talks to the stand-in. */
  apiBase: { host: string; port: number; protocol: 'http' };
  /** Every request received, in order (also those refused while down). */
  requests: LoggedRequest[];
  /** The stand-in's own records, by id (Stripe's side of the truth). */
  intents: Map<string, StandInIntent>;
  refunds: Map<string, StandInRefund>;
  /** The buyer paid (what confirming with Stripe.js and a good card does). */
  succeed(intentId: string): void;
  /** The bank asks the buyer to authenticate (3-D Secure). */
  requireAction(intentId: string): void;
  /** The card was declined: like Stripe, the intent goes back to `requires_payment_method`. */
  fail(intentId: string): void;
  /**
   * Someone refunds in Stripe's dashboard (no metadata of ours): the whole rest of the payment, or
   * `amount`. Returns the refund, as a `charge.refunded` webhook would announce it.
   */
  refundInDashboard(intentId: string, amount?: number): StandInRefund;
  /** A refund's status changes at Stripe (what a `refund.updated` webhook announces). */
  setRefundStatus(refundId: string, status: StandInRefund['status']): void;
  /** Stripe unreachable (default: connections dropped) or failing, until set back to false. */
  setDown(down: boolean, how?: StandInOutage): void;
  /** Answers `refunds` more refund requests, then goes down as setDown does (an outage midway through a run). */
  setDownAfterRefunds(refunds: number, how?: StandInOutage): void;
  close(): Promise<void>;
}

/**
 * Stands in for api.stripe.com in tests (docs/style.md: fakes only at the network boundary), for the
 * calls the Stripe provider makes: create and read PaymentIntents, create and list refunds. Idempotency
 * keys behave as at Stripe: the first answer for a key is replayed, and the key cannot be reused
 * with other parameters. Listens on a free port of 127.0.0.1.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const state: StandInState = { intents: new Map(), refunds: new Map(), answersByKey: new Map() };
  const requests: LoggedRequest[] = [];
  let outage: StandInOutage | null = null;
  let outageAfter: { refunds: number; how: StandInOutage } | null = null;

  const server = createServer((request, response) => {
    const logged = logRequest(request);
    requests.push(logged);
    if (outageAfter && logged.method === 'POST' && logged.path === '/v1/refunds') {
      if (outageAfter.refunds === 0) [outage, outageAfter] = [outageAfter.how, null];
      else outageAfter.refunds -= 1;
    }
    if (outage === 'drop') return void request.socket.destroy();
    if (outage === 'error') return send(response, stripeError(503, 'api_error', 'Stripe is down (stand-in).'));
    if (outage === 'rate-limit') {
      return send(response, stripeError(429, 'invalid_request_error', 'Request rate limit exceeded.', 'rate_limit'));
    }
    readBody(request)
      .then((body) => send(response, answer(state, request, logged, body)))
      .catch((error: unknown) => send(response, stripeError(500, 'api_error', `Stand-in failure: ${String(error)}`)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const update = (intentId: string, change: Partial<StandInIntent>) => {
    const intent = state.intents.get(intentId);
    if (!intent) throw new Error(`The Stripe stand-in has no payment intent ${intentId}`);
    Object.assign(intent, { next_action: null, last_payment_error: null }, change);
  };

  return {
    apiBase: { host: '127.0.0.1', port, protocol: 'http' },
    requests,
    intents: state.intents,
    refunds: state.refunds,
    succeed: (intentId) =>
      update(intentId, {
        status: 'succeeded',
        amount_received: state.intents.get(intentId)?.amount ?? 0,
        latest_charge: newId('ch'),
      }),
    requireAction: (intentId) => update(intentId, { status: 'requires_action', next_action: { type: 'use_stripe_sdk' } }),
    fail: (intentId) =>
      update(intentId, {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
      }),
    refundInDashboard: (intentId, amount) => {
      const refund = addRefund(state, findIntent(state, intentId), amount, { metadata: {}, reason: 'requested_by_customer' });
      return structuredClone(refund);
    },
    setRefundStatus: (refundId, status) => {
      const refund = state.refunds.get(refundId);
      if (!refund) throw new Error(`The Stripe stand-in has no refund ${refundId}`);
      refund.status = status;
    },
    setDown: (down, how = 'drop') => {
      outage = down ? how : null;
      outageAfter = null;
    },
    setDownAfterRefunds: (refunds, how = 'drop') => {
      outageAfter = { refunds, how };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * A webhook delivery as Stripe would send it, signed with the SDK's own test helper. `timestamp`
 * (Unix seconds, default now) lets a test send one that is too old.
 */
export function signedWebhook(
  payload: object,
  secret: string,
  options: { timestamp?: number } = {},
): { body: string; signature: string } {
  const body = JSON.stringify(payload);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: options.timestamp });
  return { body, signature };
}

interface StandInState {
  intents: Map<string, StandInIntent>;
  refunds: Map<string, StandInRefund>;
  answersByKey: Map<string, { fingerprint: string; answer: Answer }>;
}

interface Answer {
  status: number;
  body: object;
  replayed?: boolean;
}

/** A form body as Stripe reads it: `metadata[orderId]=x` becomes `{ metadata: { orderId: 'x' } }`. */
interface Form {
  [key: string]: string | Form;
}

/** Thrown by a route to answer with Stripe's error shape. */
class StripeErrorAnswer extends Error {
  constructor(readonly answer: Answer) {
    super('Stripe error answer');
  }
}

function logRequest(request: IncomingMessage): LoggedRequest {
  const key = request.headers['idempotency-key'];
  return {
    method: request.method ?? '',
    path: new URL(request.url ?? '/', 'http://stand-in').pathname,
    idempotencyKey: Array.isArray(key) ? key[0] : key,
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, { status, body, replayed }: Answer): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': newId('req'),
    ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
  });
  response.end(JSON.stringify(body));
}

function answer(state: StandInState, request: IncomingMessage, logged: LoggedRequest, body: string): Answer {
  if (!request.headers.authorization?.startsWith('Bearer ')) {
    return stripeError(401, 'invalid_request_error', 'You did not provide an API key.');
  }
  const run = () => {
    try {
      const query = new URL(request.url ?? '/', 'http://stand-in').searchParams;
      return route(state, logged.method, logged.path, parseForm(body), query);
    } catch (error) {
      if (error instanceof StripeErrorAnswer) return error.answer;
      throw error;
    }
  };
  if (logged.method !== 'POST' || !logged.idempotencyKey) return run();
  return idempotent(state, logged.idempotencyKey, `${logged.method} ${logged.path}?${body}`, run);
}

/** Stripe's idempotency: the first answer for a key is replayed; other parameters with it are refused. */
function idempotent(state: StandInState, key: string, fingerprint: string, run: () => Answer): Answer {
  const stored = state.answersByKey.get(key);
  if (!stored) {
    const first = run();
    state.answersByKey.set(key, { fingerprint, answer: first });
    return first;
  }
  if (stored.fingerprint !== fingerprint) {
    return stripeError(
      400,
      'idempotency_error',
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    );
  }
  return { ...stored.answer, replayed: true };
}

function route(state: StandInState, method: string, path: string, form: Form, query: URLSearchParams): Answer {
  if (method === 'POST' && path === '/v1/payment_intents') return createIntent(state, form);
  const intentId = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)?.[1];
  if (method === 'GET' && intentId) return ok(findIntent(state, intentId));
  if (method === 'POST' && path === '/v1/refunds') return createRefund(state, form);
  if (method === 'GET' && path === '/v1/refunds') return listRefunds(state, query);
  return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
}

function createIntent(state: StandInState, form: Form): Answer {
  const id = newId('pi');
  const intent: StandInIntent = {
    id,
    object: 'payment_intent',
    amount: positiveInteger(form, 'amount'),
    amount_received: 0,
    currency: text(form, 'currency').toLowerCase(),
    status: 'requires_payment_method',
    client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
    metadata: stringsOf(form.metadata),
    description: optionalText(form, 'description'),
    receipt_email: optionalText(form, 'receipt_email'),
    latest_charge: null,
    next_action: null,
    last_payment_error: null,
    created: nowSeconds(),
    livemode: false,
  };
  state.intents.set(id, intent);
  return ok(intent);
}

function createRefund(state: StandInState, form: Form): Answer {
  const intent = findIntent(state, text(form, 'payment_intent'));
  const amount = form.amount === undefined ? undefined : positiveInteger(form, 'amount');
  return ok(addRefund(state, intent, amount, { metadata: stringsOf(form.metadata), reason: optionalText(form, 'reason') }));
}

/** Stripe's checks for a refund, then the refund (succeeded at once, as card refunds mostly are). */
function addRefund(
  state: StandInState,
  intent: StandInIntent,
  requested: number | undefined,
  { metadata, reason }: { metadata: Record<string, string>; reason: string | null },
): StandInRefund {
  if (intent.status !== 'succeeded') {
    throw refusal(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, 'charge_not_refundable');
  }
  const remaining = intent.amount - refundedSoFar(state, intent.id);
  if (remaining === 0) throw refusal(`Charge ${intent.latest_charge} has already been refunded.`, 'charge_already_refunded');
  const amount = requested ?? remaining;
  if (amount > remaining) {
    throw refusal(
      `Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`,
      'amount_too_large',
      'amount',
    );
  }
  const refund: StandInRefund = {
    id: newId('re'),
    object: 'refund',
    amount,
    currency: intent.currency,
    payment_intent: intent.id,
    charge: intent.latest_charge,
    status: 'succeeded',
    reason,
    metadata,
    created: nowSeconds(),
  };
  state.refunds.set(refund.id, refund);
  return refund;
}

/** `GET /v1/refunds?payment_intent=…`: newest first, as Stripe lists; one page is all a test needs. */
function listRefunds(state: StandInState, query: URLSearchParams): Answer {
  const intentId = query.get('payment_intent');
  const refunds = [...state.refunds.values()].filter((refund) => !intentId || refund.payment_intent === intentId).reverse();
  return ok({ object: 'list', url: '/v1/refunds', has_more: false, data: refunds });
}

function findIntent(state: StandInState, id: string): StandInIntent {
  const intent = state.intents.get(id);
  if (!intent) {
    throw new StripeErrorAnswer(
      stripeError(404, 'invalid_request_error', `No such payment_intent: '${id}'`, 'resource_missing', 'intent'),
    );
  }
  return intent;
}

/** What has gone back so far: failed and canceled refunds returned nothing. */
function refundedSoFar(state: StandInState, intentId: string): number {
  let total = 0;
  for (const refund of state.refunds.values()) {
    if (refund.payment_intent === intentId && refund.status !== 'failed' && refund.status !== 'canceled') total += refund.amount;
  }
  return total;
}

/** Decodes a form body with Stripe's bracket notation for nested objects. */
function parseForm(body: string): Form {
  const form: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split('[').map((segment) => segment.replace(/\]$/, ''));
    const last = path.pop() ?? '';
    let target = form;
    for (const segment of path) {
      const next = target[segment];
      target = typeof next === 'object' ? next : (target[segment] = {});
    }
    target[last] = value;
  }
  return form;
}

function text(form: Form, name: string): string {
  const value = form[name];
  if (typeof value === 'string' && value !== '') return value;
  throw refusal(`Missing required param: ${name}.`, 'parameter_missing', name);
}

function optionalText(form: Form, name: string): string | null {
  const value = form[name];
  return typeof value === 'string' ? value : null;
}

function positiveInteger(form: Form, name: string): number {
  const value = Number(text(form, name));
  if (Number.isInteger(value) && value > 0) return value;
  throw refusal(`Invalid integer: ${String(form[name])}`, 'parameter_invalid_integer', name);
}

function stringsOf(value: string | Form | undefined): Record<string, string> {
  if (typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function refusal(message: string, code: string, param?: string): StripeErrorAnswer {
  return new StripeErrorAnswer(stripeError(400, 'invalid_request_error', message, code, param));
}

function stripeError(status: number, type: string, message: string, code?: string, param?: string): Answer {
  return { status, body: { error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } } };
}

/** Answers a copy, so a replayed answer shows the object as it was then, as at Stripe. */
function ok(body: object): Answer {
  return { status: 200, body: structuredClone(body) };
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
