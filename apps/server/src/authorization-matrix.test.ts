import { once } from 'node:events';
import { callableErrorCodeOf, type CallableContract } from '@admit/shared/callable';
import { scanTicket, scanTicketBatch, undoCheckIn } from '@admit/shared/checkin';
import { applyImport, prepareImport, validateImport } from '@admit/shared/csv';
import {
  cancelEvent,
  deleteEvent,
  moveEvent,
  removeTicketType,
  reorderTicketTypes,
  updateEvent,
  updateTicketType,
} from '@admit/shared/event-changes';
import { setEventContent, type SetEventContentInput } from '@admit/shared/event-content';
import { setEmbedSites } from '@admit/shared/embed';
import { addTicketType, createEvent, publishEvent } from '@admit/shared/events';
import type { LiveServerMessage } from '@admit/shared/live';
import { cancelOrder, confirmGuestOrder, confirmPayment, createOrder, refundOrder, startPayment } from '@admit/shared/orders';
import {
  acceptInvitation,
  changeMemberRole,
  createOrg,
  declineInvitation,
  inviteMember,
  removeMember,
  revokeInvitation,
  setRequireTwoFactor,
  transferOwnership,
} from '@admit/shared/orgs';
import { sandboxAuthenticate, sandboxConfirm } from '@admit/shared/payments';
import { setTicketHolder } from '@admit/shared/tickets';
import { setAccountLanguage } from '@admit/shared/account';
import {
  guestMailAllowance,
  previewAttendeeMessage,
  sendAttendeeMessage,
  sendChangeNotice,
} from '@admit/shared/attendee-messages';
import { createCode, deleteCode, generateCodes, updateCode } from '@admit/shared/codes';
import { createApiKey, revokeApiKey } from '@admit/shared/api-keys';
import {
  createWebhook,
  deleteWebhook,
  pingWebhook,
  resendWebhook,
  rotateWebhookSecret,
  updateWebhook,
} from '@admit/shared/webhooks';
import {
  acceptWaitlistOffer,
  configureWaitlist,
  confirmWaitlistEntry,
  joinWaitlist,
  leaveWaitlist,
  offerWaitlistEntry,
  removeWaitlistEntry,
} from '@admit/shared/waitlist';
import {
  acceptTransfer,
  cancelTransfer,
  configureTransfers,
  resellTicket,
  transferTicket,
  withdrawResale,
} from '@admit/shared/transfers';
import { changeAnswers, createQuestion, deleteQuestion, moveQuestion, updateQuestion } from '@admit/shared/questions';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { z } from 'zod';
import { callables, liveQueries } from './app';
import { ticket } from './modules/tickets/schema';
import { addMember, addTicketTypeAs, createEventAs, createOrgAs, createPublishedEvent } from './testing/fixtures';
import { createTestApp, testAuthSecret, type TestApp } from './testing/test-app';
import { orderAccessToken } from './modules/orders/order-access';

// Who may do what (the roles in docs/product.md), as one table: every callable and live query
// registered in app.ts has a row, and each row says what each kind of caller gets. The test fails
// for a callable or live query without a row, so a new one cannot be added without deciding who
// may use it. Callables' rows are keyed by their contracts, so each row's input has the type the
// callable accepts.

const actors = ['signedOut', 'buyer', 'staff', 'admin', 'owner', 'otherOwner'] as const;
type Actor = (typeof actors)[number];
type Outcome = 'ok' | 'unauthenticated' | 'permission-denied' | 'not-found' | 'failed-precondition';

/** A fresh organization (owner, admin, staff) with a draft and a published event and an invitation for the buyer. */
interface World {
  organizationId: string;
  draftEventId: string;
  publishedEventId: string;
  publishedSlug: string;
  ticketTypeId: string;
  /** The draft's one ticket type, never ordered. */
  draftTicketTypeId: string;
  invitationId: string;
  /** The buyer's pending order for a paid ticket, with its sandbox payment started. */
  buyerOrderId: string;
  clientSecret: string;
  /** The buyer's completed order for a free ticket (what admins refund and look into). */
  paidOrderId: string;
  /** That order's ticket. */
  buyerTicketId: string;
  /** A hidden ticket type of the published event, and its access code MATRIX. */
  hiddenTicketTypeId: string;
  codeId: string;
  /** A question of the draft event. */
  questionId: string;
  /** A change of the published event's place, not told yet. */
  changeId: string;
  /** A webhook endpoint of the organization, and the delivery of its test ping. */
  webhookEndpointId: string;
  webhookDeliveryId: string;
  /** A sold-out ticket type of the published event (its one place the staff member's), and the buyer's entry on its waiting list. */
  waitlistTypeId: string;
  waitlistEntryId: string;
}

interface Row<Input = unknown> {
  input(world: World): Input;
  expect: Record<Actor, Outcome>;
  /** Why the row is as it is, where it is not obvious. */
  note?: string;
  /**
   * A success only reads the world or adds to it (a new organization, order or question), leaving
   * what the other cells use as it was: the row's successful cells share one world with the other
   * such rows' instead of each making a fresh one.
   */
  addsOnly?: true;
}

/** A callable's row, keyed by its contract, so that the row's input is checked against the contract's. */
const callableRow = <Input>(contract: CallableContract<z.ZodType<unknown, Input>>, row: Row<Input>): [CallableContract, Row] => [
  contract,
  row,
];

const anyoneSignedIn: Record<Actor, Outcome> = {
  signedOut: 'unauthenticated',
  buyer: 'ok',
  staff: 'ok',
  admin: 'ok',
  owner: 'ok',
  otherOwner: 'ok',
};
const everyone: Record<Actor, Outcome> = { ...anyoneSignedIn, signedOut: 'ok' };
/** Outsiders get `not-found`: an organization's ids reveal nothing to them. */
const staffUp: Record<Actor, Outcome> = {
  signedOut: 'unauthenticated',
  buyer: 'not-found',
  staff: 'ok',
  admin: 'ok',
  owner: 'ok',
  otherOwner: 'not-found',
};
const adminUp: Record<Actor, Outcome> = { ...staffUp, staff: 'permission-denied' };
const ownerOnly: Record<Actor, Outcome> = { ...adminUp, admin: 'permission-denied' };
/** Only the person it is for (the buyer's order, the invitee's invitation): everyone else gets `not-found`. */
const ownOnly: Record<Actor, Outcome> = {
  signedOut: 'unauthenticated',
  buyer: 'ok',
  staff: 'not-found',
  admin: 'not-found',
  owner: 'not-found',
  otherOwner: 'not-found',
};

/** Nobody, signed in or not: what only a guest's emailed token opens, asked with a made-up one. */
const nobody: Record<Actor, Outcome> = {
  signedOut: 'not-found',
  buyer: 'not-found',
  staff: 'not-found',
  admin: 'not-found',
  owner: 'not-found',
  otherOwner: 'not-found',
};
const wrongToken = 'x'.repeat(43);

const callableMatrix = new Map<CallableContract, Row>([
  callableRow(createOrg, { addsOnly: true, input: () => ({ name: 'Side Project' }), expect: anyoneSignedIn }),
  callableRow(inviteMember, {
    input: (w) => ({ organizationId: w.organizationId, email: 'new.person@example.test', role: 'staff' }),
    expect: adminUp,
  }),
  callableRow(acceptInvitation, {
    input: (w) => ({ invitationId: w.invitationId }),
    expect: ownOnly,
    note: 'the invitation is addressed to the buyer',
  }),
  callableRow(declineInvitation, { input: (w) => ({ invitationId: w.invitationId }), expect: ownOnly }),
  callableRow(revokeInvitation, { input: (w) => ({ invitationId: w.invitationId }), expect: adminUp }),
  callableRow(changeMemberRole, {
    input: (w) => ({ organizationId: w.organizationId, userId: people.staff.user.id, role: 'admin' }),
    expect: ownerOnly,
  }),
  callableRow(removeMember, {
    input: (w) => ({ organizationId: w.organizationId, userId: people.staff.user.id }),
    expect: staffUp,
    note: 'the target is the staff member: the owner and admins may remove staff, and staff may leave',
  }),
  callableRow(setRequireTwoFactor, {
    input: (w) => ({ organizationId: w.organizationId, required: false }),
    expect: ownerOnly,
    note: 'turning it on also needs the owner to have a second factor (require-two-factor.test.ts)',
  }),
  callableRow(transferOwnership, {
    input: (w) => ({ organizationId: w.organizationId, userId: people.staff.user.id }),
    expect: ownerOnly,
  }),
  callableRow(createEvent, {
    addsOnly: true,
    input: (w) => ({
      organizationId: w.organizationId,
      title: 'Matrix night',
      venue: 'Club Blau',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-01-10T19:00',
      endsAtLocal: '2030-01-10T23:00',
      capacity: 100,
    }),
    expect: adminUp,
  }),
  callableRow(addTicketType, {
    addsOnly: true,
    input: (w) => ({ eventId: w.draftEventId, name: 'Balcony', capacity: 10 }),
    expect: adminUp,
  }),
  callableRow(publishEvent, { input: (w) => ({ eventId: w.draftEventId }), expect: adminUp }),
  callableRow(setEmbedSites, { input: (w) => ({ eventId: w.draftEventId, sites: [] }), expect: adminUp }),
  callableRow(updateEvent, {
    input: (w) => ({
      eventId: w.draftEventId,
      title: 'Matrix night, later',
      description: '',
      venue: 'Club Blau',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-01-11T19:00',
      endsAtLocal: '2030-01-11T23:00',
      capacity: 100,
      currency: 'EUR',
    }),
    expect: adminUp,
  }),
  callableRow(updateTicketType, {
    input: (w) => ({
      ticketTypeId: w.draftTicketTypeId,
      name: 'Standing, renamed',
      price: 0,
      capacity: 10,
      maxPerOrder: 10,
      salesStartLocal: null,
      salesEndLocal: null,
      hidden: false,
    }),
    expect: adminUp,
  }),
  callableRow(reorderTicketTypes, {
    input: (w) => ({ eventId: w.draftEventId, ticketTypeIds: [w.draftTicketTypeId] }),
    expect: adminUp,
  }),
  callableRow(removeTicketType, { input: (w) => ({ ticketTypeId: w.draftTicketTypeId }), expect: adminUp }),
  callableRow(setEventContent, {
    input: (w): SetEventContentInput => ({
      eventId: w.draftEventId,
      contentLocale: 'en',
      translations: { fr: { title: 'Soirée matrice', venue: 'Club Blau' } },
      ticketTypes: [{ ticketTypeId: w.draftTicketTypeId, nameTranslations: { fr: 'Debout' } }],
    }),
    expect: adminUp,
  }),
  callableRow(moveEvent, { input: (w) => ({ eventId: w.publishedEventId, move: 'closeSales' }), expect: adminUp }),
  callableRow(cancelEvent, { input: (w) => ({ eventId: w.publishedEventId, message: 'Matrix check' }), expect: adminUp }),
  callableRow(deleteEvent, { input: (w) => ({ eventId: w.draftEventId }), expect: adminUp }),
  callableRow(createOrder, {
    addsOnly: true,
    input: (w) => ({ eventId: w.publishedEventId, lines: [{ ticketTypeId: w.ticketTypeId, quantity: 1 }] }),
    expect: anyoneSignedIn,
    note: 'without a session only with `guest` (guest-checkout.test.ts)',
  }),
  callableRow(confirmGuestOrder, {
    input: (w) => ({ orderId: w.buyerOrderId, accessToken: orderAccessToken({ AUTH_SECRET: testAuthSecret }, w.paidOrderId) }),
    expect: Object.fromEntries(actors.map((actor) => [actor, 'not-found'])) as Record<Actor, Outcome>,
    note: 'the token is the capability, and one order’s token opens no other (its own: guest-checkout.test.ts)',
  }),
  callableRow(setTicketHolder, {
    input: (w) => ({ ticketId: w.buyerTicketId, name: 'Gina Guest' }),
    expect: ownOnly,
    note: 'the buyer names who uses their ticket',
  }),
  callableRow(setAccountLanguage, {
    addsOnly: true,
    input: () => ({ locale: 'fr' }),
    expect: anyoneSignedIn,
    note: 'each person saves their own language, nobody else’s',
  }),
  callableRow(startPayment, { input: (w) => ({ orderId: w.buyerOrderId }), expect: ownOnly }),
  callableRow(confirmPayment, { input: (w) => ({ orderId: w.buyerOrderId }), expect: ownOnly }),
  callableRow(cancelOrder, { input: (w) => ({ orderId: w.buyerOrderId }), expect: ownOnly }),
  callableRow(scanTicket, {
    addsOnly: true,
    input: (w) => ({
      eventId: w.publishedEventId,
      code: 'matrix-code-that-is-no-ticket',
      device: 'Door 1',
      scannedAt: new Date().toISOString(),
      idempotencyKey: `matrix-scan-${w.publishedEventId}`,
    }),
    expect: staffUp,
  }),
  callableRow(scanTicketBatch, {
    addsOnly: true,
    input: (w) => ({
      scans: [
        {
          eventId: w.publishedEventId,
          code: 'matrix-code-that-is-no-ticket',
          device: 'Door 1',
          scannedAt: new Date().toISOString(),
          idempotencyKey: `matrix-batch-${w.publishedEventId}`,
        },
      ],
    }),
    expect: staffUp,
  }),
  callableRow(undoCheckIn, {
    input: (w) => ({ eventId: w.publishedEventId, scanKey: `matrix-scan-${w.publishedEventId}`, device: 'Door 1' }),
    expect: staffUp,
  }),
  callableRow(refundOrder, {
    input: (w) => ({ orderId: w.paidOrderId, reason: 'Matrix check', idempotencyKey: `matrix-${w.paidOrderId}` }),
    expect: adminUp,
  }),
  callableRow(previewAttendeeMessage, {
    addsOnly: true,
    input: (w) => ({ eventId: w.publishedEventId, subject: 'Matrix', body: 'Who may write', audience: {} }),
    expect: adminUp,
  }),
  callableRow(sendChangeNotice, {
    input: (w) => ({ eventId: w.publishedEventId, changeId: w.changeId }),
    expect: adminUp,
  }),
  callableRow(sendAttendeeMessage, {
    input: (w) => ({
      eventId: w.publishedEventId,
      subject: 'Matrix',
      body: 'Who may write',
      audience: {},
      idempotencyKey: `matrix-message-${w.publishedEventId}`,
    }),
    expect: adminUp,
    note: 'to the buyer, who holds the free ticket; the owner sends the same key again and gets the same message',
  }),
  callableRow(guestMailAllowance, { addsOnly: true, input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp }),
  callableRow(createCode, {
    input: (w) => ({ eventId: w.publishedEventId, code: 'MATRIX-2', ticketTypeIds: [w.hiddenTicketTypeId] }),
    expect: adminUp,
  }),
  callableRow(updateCode, {
    input: (w) => ({
      eventId: w.publishedEventId,
      codeId: w.codeId,
      code: 'MATRIX',
      ticketTypeIds: [w.hiddenTicketTypeId],
      maxUses: 5,
    }),
    expect: adminUp,
  }),
  callableRow(generateCodes, {
    addsOnly: true,
    input: (w) => ({ eventId: w.publishedEventId, count: 3, prefix: 'MATRIX', ticketTypeIds: [w.hiddenTicketTypeId] }),
    expect: adminUp,
  }),
  callableRow(deleteCode, { input: (w) => ({ eventId: w.publishedEventId, codeId: w.codeId }), expect: adminUp }),
  callableRow(configureWaitlist, { input: (w) => ({ eventId: w.draftEventId, enabled: true }), expect: adminUp }),
  callableRow(joinWaitlist, {
    addsOnly: true,
    input: (w) => ({ eventId: w.publishedEventId, ticketTypeId: w.waitlistTypeId, quantity: 1 }),
    expect: { ...anyoneSignedIn, buyer: 'failed-precondition' },
    note: 'anyone signed in may wait for a sold-out type; the buyer waits already',
  }),
  callableRow(leaveWaitlist, { input: (w) => ({ entryId: w.waitlistEntryId }), expect: ownOnly }),
  callableRow(confirmWaitlistEntry, {
    input: (w) => ({ entryId: w.waitlistEntryId, token: wrongToken }),
    expect: nobody,
    note: 'only the token emailed to a guest opens an entry; a made-up one opens none',
  }),
  callableRow(acceptWaitlistOffer, {
    input: (w) => ({ entryId: w.waitlistEntryId }),
    expect: { ...ownOnly, buyer: 'failed-precondition' },
    note: 'the entry’s person only; nothing is offered to it yet',
  }),
  callableRow(removeWaitlistEntry, { input: (w) => ({ entryId: w.waitlistEntryId }), expect: adminUp }),
  callableRow(offerWaitlistEntry, {
    input: (w) => ({ entryId: w.waitlistEntryId }),
    expect: { ...adminUp, admin: 'failed-precondition', owner: 'failed-precondition' },
    note: 'its admins may; no place is free',
  }),
  callableRow(createWebhook, {
    addsOnly: true,
    input: (w) => ({ organizationId: w.organizationId, url: 'http://127.0.0.1:9/other', eventTypes: ['order.paid'] }),
    expect: adminUp,
    note: 'a webhook gets every order’s buyer and email',
  }),
  callableRow(updateWebhook, {
    input: (w) => ({ endpointId: w.webhookEndpointId, eventTypes: ['order.paid' as const] }),
    expect: adminUp,
  }),
  callableRow(deleteWebhook, { input: (w) => ({ endpointId: w.webhookEndpointId }), expect: adminUp }),
  callableRow(rotateWebhookSecret, { input: (w) => ({ endpointId: w.webhookEndpointId }), expect: adminUp }),
  callableRow(resendWebhook, { addsOnly: true, input: (w) => ({ deliveryId: w.webhookDeliveryId }), expect: adminUp }),
  callableRow(pingWebhook, { addsOnly: true, input: (w) => ({ endpointId: w.webhookEndpointId }), expect: adminUp }),
  callableRow(createQuestion, {
    addsOnly: true,
    input: (w) => ({ eventId: w.draftEventId, kind: 'text', label: 'Company' }),
    expect: adminUp,
  }),
  callableRow(updateQuestion, {
    input: (w) => ({ eventId: w.draftEventId, questionId: w.questionId, label: 'Diet', options: ['Vegan', 'Other'] }),
    expect: adminUp,
  }),
  callableRow(moveQuestion, {
    input: (w) => ({ eventId: w.draftEventId, questionId: w.questionId, direction: 'down' }),
    expect: adminUp,
  }),
  callableRow(deleteQuestion, { input: (w) => ({ eventId: w.draftEventId, questionId: w.questionId }), expect: adminUp }),
  callableRow(createApiKey, {
    addsOnly: true,
    input: (w) => ({ organizationId: w.organizationId, name: 'Matrix', scopes: ['read'] }),
    expect: adminUp,
  }),
  callableRow(revokeApiKey, {
    input: (w) => ({ organizationId: w.organizationId, apiKeyId: 'no-such-key' }),
    expect: adminUp,
    note: 'revoking a key that is not there changes nothing',
  }),
  callableRow(transferTicket, {
    input: (w) => ({ ticketId: w.buyerTicketId, email: 'matrix-friend@example.test' }),
    expect: ownOnly,
    note: 'the holder sends their ticket (an admin neither holds nor sends it)',
  }),
  callableRow(acceptTransfer, {
    input: () => ({ transferId: 'matrix-no-such-transfer', token: wrongToken, name: 'Gina Guest' }),
    expect: nobody,
    note: 'only the token emailed to the recipient opens a transfer',
  }),
  callableRow(cancelTransfer, { input: () => ({ transferId: 'matrix-no-such-transfer', token: wrongToken }), expect: nobody }),
  callableRow(configureTransfers, { input: (w) => ({ eventId: w.publishedEventId, enabled: true }), expect: adminUp }),
  callableRow(resellTicket, {
    input: (w) => ({ ticketId: w.buyerTicketId, fee: 0 }),
    expect: { ...ownOnly, buyer: 'failed-precondition' },
    note: 'the holder offers their ticket back (here resale is off: refused as closed, past authorization)',
  }),
  callableRow(withdrawResale, {
    input: (w) => ({ ticketId: w.buyerTicketId }),
    expect: { ...ownOnly, buyer: 'failed-precondition' },
    note: 'the holder takes their offer back (here none is open)',
  }),
  callableRow(changeAnswers, {
    input: (w) => ({ orderId: w.paidOrderId, ticketId: w.buyerTicketId, answers: {} }),
    expect: ownOnly,
    note: 'the buyer answers for their tickets',
  }),
  callableRow(prepareImport, { addsOnly: true, input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp }),
  callableRow(validateImport, {
    addsOnly: true,
    input: (w) => ({ eventId: w.publishedEventId, rows: [{ line: 2, name: 'Gina Guest', email: 'gina@example.test' }] }),
    expect: adminUp,
  }),
  callableRow(applyImport, {
    input: (w) => ({
      eventId: w.publishedEventId,
      rows: [{ line: 2, name: 'Gina Guest', email: 'gina@example.test', ticketType: 'Standing' }],
    }),
    expect: adminUp,
  }),
  callableRow(sandboxConfirm, {
    input: (w) => ({ clientSecret: w.clientSecret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }),
    expect: everyone,
    note: 'The client secret is the capability, as at Stripe: whoever holds it may pay (a guest too).',
  }),
  callableRow(sandboxAuthenticate, {
    input: (w) => ({ clientSecret: w.clientSecret, approve: true }),
    expect: {
      signedOut: 'failed-precondition',
      buyer: 'failed-precondition',
      staff: 'failed-precondition',
      admin: 'failed-precondition',
      owner: 'failed-precondition',
      otherOwner: 'failed-precondition',
    },
    note: 'Allowed to whoever holds the secret; with no confirmation step pending it answers failed-precondition.',
  }),
]);

const liveQueryMatrix: Record<string, Row> = {
  'orgs.mine': { input: () => ({}), expect: anyoneSignedIn },
  'orgs.members': { input: (w) => ({ organizationId: w.organizationId }), expect: staffUp },
  'orgs.invitations': { input: (w) => ({ organizationId: w.organizationId }), expect: adminUp },
  'orgs.myInvitations': { input: () => ({}), expect: anyoneSignedIn },
  'events.public': { input: (w) => ({ slug: w.publishedSlug }), expect: everyone },
  'events.published': { input: () => ({}), expect: everyone },
  'events.availability': { input: (w) => ({ eventId: w.publishedEventId }), expect: everyone },
  'events.forOrg': { input: (w) => ({ organizationId: w.organizationId }), expect: staffUp },
  'events.managed': { input: (w) => ({ eventId: w.draftEventId }), expect: staffUp },
  'events.ticketTypes': { input: (w) => ({ eventId: w.draftEventId }), expect: adminUp },
  'events.audit': { input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp, note: 'who changed what' },
  'orders.forEvent': { input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp },
  'tickets.mine': { input: () => ({}), expect: anyoneSignedIn },
  'orders.mine': { input: (w) => ({ orderId: w.buyerOrderId }), expect: ownOnly },
  'orders.detail': { input: (w) => ({ orderId: w.paidOrderId }), expect: adminUp },
  'checkin.kit': { input: (w) => ({ eventId: w.publishedEventId }), expect: staffUp, note: 'the key that signs ticket codes' },
  'checkin.attendees': { input: (w) => ({ eventId: w.publishedEventId }), expect: staffUp },
  'checkin.counts': { input: (w) => ({ eventId: w.publishedEventId }), expect: staffUp },
  'checkin.recent': { input: (w) => ({ eventId: w.publishedEventId }), expect: staffUp },
  'analytics.event': { input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp, note: 'visitors, funnel and revenue' },
  'analytics.org': { input: (w) => ({ organizationId: w.organizationId }), expect: adminUp },
  'messages.ofEvent': { input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp },
  'messages.recipients': {
    input: (w) => ({ eventId: w.publishedEventId, messageId: 'matrix-no-such-message' }),
    expect: adminUp,
    note: 'who got a message (names and addresses)',
  },
  'messages.ofOrder': { input: (w) => ({ eventId: w.publishedEventId, orderId: w.paidOrderId }), expect: ownOnly },
  'codes.ofEvent': { input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp, note: 'the codes are secrets' },
  'apiKeys.ofOrg': { input: (w) => ({ organizationId: w.organizationId }), expect: adminUp },
  'webhooks.endpoints': { input: (w) => ({ organizationId: w.organizationId }), expect: adminUp },
  'webhooks.deliveries': { input: (w) => ({ endpointId: w.webhookEndpointId }), expect: adminUp },
  'questions.ofEvent': {
    input: (w) => ({ eventId: w.draftEventId }),
    expect: { ...staffUp, signedOut: 'not-found' },
    note: 'a draft’s, to its organization; a published event’s, to everyone (its buyers answer them)',
  },
  'waitlist.settings': {
    input: (w) => ({ eventId: w.draftEventId }),
    expect: { ...staffUp, signedOut: 'not-found' },
    note: 'a draft’s, to its organization; a published event’s, to everyone',
  },
  'tickets.transferSettings': {
    input: (w) => ({ eventId: w.draftEventId }),
    expect: { ...staffUp, signedOut: 'not-found' },
    note: 'a draft’s, to its organization; a published event’s, to everyone',
  },
  'tickets.held': {
    input: (w) => ({ ticketId: w.buyerTicketId, accessToken: wrongToken }),
    expect: { ...nobody, buyer: 'ok' },
    note: 'whoever holds the ticket: its buyer by their session, a guest by the ticket’s own token',
  },
  'tickets.incomingTransfer': {
    input: () => ({ transferId: 'matrix-no-such-transfer', token: wrongToken }),
    expect: nobody,
    note: 'only the token emailed to the recipient opens a transfer',
  },
  'tickets.eventTransfers': { input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp, note: 'names and addresses' },
  'waitlist.mine': { input: (w) => ({ eventId: w.publishedEventId }), expect: anyoneSignedIn },
  'waitlist.guestEntry': {
    input: (w) => ({ entryId: w.waitlistEntryId, token: wrongToken }),
    expect: nobody,
    note: 'only the token emailed to a guest opens an entry',
  },
  'waitlist.forEvent': { input: (w) => ({ eventId: w.publishedEventId }), expect: adminUp, note: 'names and addresses' },
  'codes.ticketTypes': {
    input: (w) => ({ eventId: w.publishedEventId, code: 'MATRIX' }),
    expect: everyone,
    note: 'whoever has the code: it is the capability',
  },
};

/** Permission-checked GET routes (the `/files/*` routes in docs/contracts.md); `input` is the URL. */
const routeMatrix: Record<string, Row> = {
  'attendees export': {
    input: (w) => `/files/events/${w.publishedEventId}/exports/attendees.csv`,
    expect: staffUp,
    note: 'staff get the attendee list (names only), for the door',
  },
  'orders export': { input: (w) => `/files/events/${w.publishedEventId}/exports/orders.csv`, expect: adminUp },
  'check-ins export': { input: (w) => `/files/events/${w.publishedEventId}/exports/check-ins.csv`, expect: adminUp },
  'codes export': {
    input: (w) => `/files/events/${w.publishedEventId}/exports/codes.csv`,
    expect: adminUp,
    note: 'the codes are secrets',
  },
  'one ticket’s PDF': {
    input: (w) => `/files/tickets/${w.buyerTicketId}/ticket.pdf`,
    expect: { ...ownOnly, admin: 'ok', owner: 'ok' },
    note: 'its holder, and the organization’s admins',
  },
  'one ticket’s Apple Wallet pass': {
    input: (w) => `/files/tickets/${w.buyerTicketId}/pass.pkpass`,
    expect: { ...ownOnly, admin: 'ok', owner: 'ok' },
    note: 'whoever may get its PDF',
  },
  'one ticket’s Google Wallet link': {
    input: (w) => `/files/tickets/${w.buyerTicketId}/google-wallet`,
    expect: { ...ownOnly, admin: 'ok', owner: 'ok' },
    note: 'whoever may get its PDF; a redirect to Google',
  },
  'waitlist export': { input: (w) => `/files/events/${w.publishedEventId}/exports/waitlist.csv`, expect: adminUp },
};

type Person = Awaited<ReturnType<TestApp['signUp']>>;
let t: TestApp;
let baseUrl: string;
const people = {} as Record<Exclude<Actor, 'signedOut'>, Person>;

beforeAll(async () => {
  // Every cell builds a world with an invitation to the buyer and two orders of theirs: far more
  // than the quotas per account allow in a day (they are tested in order-quotas.test.ts and
  // invitation-quotas.test.ts).
  t = await createTestApp({
    env: {
      ORDER_ATTEMPTS_PER_ACCOUNT: '10000',
      ORDER_ATTEMPTS_PER_ADDRESS: '10000',
      INVITATIONS_PER_ACCOUNT: '10000',
      INVITATIONS_PER_RECIPIENT: '10000',
    },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const [buyer, staff, admin, owner, otherOwner] = await Promise.all([
    t.signUp('Bea Buyer'),
    t.signUp('Sam Staff'),
    t.signUp('Adam Admin'),
    t.signUp('Olga Owner'),
    t.signUp('Otto Other'),
  ]);
  Object.assign(people, { buyer, staff, admin, owner, otherOwner });
  await createOrgAs(t, otherOwner.cookie, 'Elsewhere');
});
afterAll(() => t?.close());

async function newWorld(): Promise<World> {
  const owner = people.owner.cookie;
  const { organizationId } = await createOrgAs(t, owner, 'Matrix Hall');
  await addMember(t, organizationId, people.admin.user.id, 'admin');
  await addMember(t, organizationId, people.staff.user.id, 'staff');
  const published = await createPublishedEvent(t, owner, {
    organizationId,
    ticketTypes: [{ capacity: 50 }, { name: 'Seated', capacity: 20, price: 1500 }],
  });
  const draft = await createEventAs(t, owner, organizationId);
  const draftTicketTypeId = await addTicketTypeAs(t, owner, draft.eventId, { capacity: 10 });
  const invited = await t.call(inviteMember, { organizationId, email: people.buyer.email, role: 'staff' }, owner);
  if (invited.status !== 200) throw new Error(`set-up invitation failed: ${JSON.stringify(invited.body)}`);
  const ordered = await t.call(
    createOrder,
    { eventId: published.eventId, lines: [{ ticketTypeId: published.ticketTypeIds[1]!, quantity: 1 }] },
    people.buyer.cookie,
  );
  const started = await t.call(startPayment, { orderId: ordered.body.result.orderId }, people.buyer.cookie);
  if (started.status !== 200) throw new Error(`set-up payment failed: ${JSON.stringify(started.body)}`);
  const free = await t.call(
    createOrder,
    { eventId: published.eventId, lines: [{ ticketTypeId: published.ticketTypeIds[0]!, quantity: 1 }] },
    people.buyer.cookie,
  );
  if (free.status !== 200) throw new Error(`set-up free order failed: ${JSON.stringify(free.body)}`);
  const hiddenTicketTypeId = await addTicketTypeAs(t, owner, published.eventId, { name: 'Crew', capacity: 5 });
  const hidden = await t.call(
    updateTicketType,
    {
      ticketTypeId: hiddenTicketTypeId,
      name: 'Crew',
      price: 0,
      capacity: 5,
      maxPerOrder: 10,
      salesStartLocal: null,
      salesEndLocal: null,
      hidden: true,
    },
    owner,
  );
  if (hidden.status !== 200) throw new Error(`set-up hidden type failed: ${JSON.stringify(hidden.body)}`);
  const coded = await t.call(
    createCode,
    { eventId: published.eventId, code: 'MATRIX', ticketTypeIds: [hiddenTicketTypeId] },
    owner,
  );
  if (coded.status !== 200) throw new Error(`set-up code failed: ${JSON.stringify(coded.body)}`);
  const asked = await t.call(
    createQuestion,
    { eventId: draft.eventId, kind: 'choice', label: 'Diet', options: ['Vegan', 'Other'] },
    owner,
  );
  if (asked.status !== 200) throw new Error(`set-up question failed: ${JSON.stringify(asked.body)}`);
  const moved = await t.call(
    updateEvent,
    {
      eventId: published.eventId,
      title: 'Jazz night',
      description: '',
      venue: 'Hall 2',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-01-10T19:00',
      endsAtLocal: '2030-01-10T23:00',
      capacity: 100,
      currency: 'EUR',
    },
    owner,
  );
  if (!moved.body.result?.change) throw new Error(`set-up change failed: ${JSON.stringify(moved.body)}`);
  const hooked = await t.call(
    createWebhook,
    { organizationId, url: 'http://127.0.0.1:9/hook', eventTypes: ['order.created'] },
    owner,
  );
  if (hooked.status !== 200) throw new Error(`set-up webhook failed: ${JSON.stringify(hooked.body)}`);
  const pinged = await t.call(pingWebhook, { endpointId: hooked.body.result.endpointId }, owner);
  if (pinged.status !== 200) throw new Error(`set-up ping failed: ${JSON.stringify(pinged.body)}`);
  const waitlistTypeId = await addTicketTypeAs(t, owner, published.eventId, { name: 'Last one', capacity: 1 });
  const lastOne = await t.call(
    createOrder,
    { eventId: published.eventId, lines: [{ ticketTypeId: waitlistTypeId, quantity: 1 }] },
    people.staff.cookie,
  );
  await t.call(configureWaitlist, { eventId: published.eventId, enabled: true }, owner);
  const joined = await t.call(
    joinWaitlist,
    { eventId: published.eventId, ticketTypeId: waitlistTypeId, quantity: 1 },
    people.buyer.cookie,
  );
  if (lastOne.status !== 200 || joined.status !== 200) throw new Error(`set-up waitlist failed: ${JSON.stringify(joined.body)}`);
  return {
    waitlistTypeId,
    waitlistEntryId: joined.body.result.entryId,
    webhookEndpointId: hooked.body.result.endpointId,
    webhookDeliveryId: pinged.body.result.deliveryId,
    changeId: moved.body.result.change.id,
    questionId: asked.body.result.questionId,
    hiddenTicketTypeId,
    codeId: coded.body.result.codeId,
    organizationId,
    draftEventId: draft.eventId,
    publishedEventId: published.eventId,
    publishedSlug: published.slug,
    ticketTypeId: published.ticketTypeIds[0]!,
    draftTicketTypeId,
    invitationId: invited.body.result.invitationId,
    buyerOrderId: ordered.body.result.orderId,
    clientSecret: started.body.result.clientSecret,
    paidOrderId: free.body.result.orderId,
    buyerTicketId: (await t.db.select({ id: ticket.id }).from(ticket).where(eq(ticket.orderId, free.body.result.orderId)))[0]!.id,
  };
}

const cookieOf = (actor: Actor) => (actor === 'signedOut' ? undefined : people[actor].cookie);

/** Subscribes once and answers 'ok' for a snapshot or the error's code. */
async function subscribeAs(actor: Actor, query: string, params: unknown): Promise<string> {
  const cookie = cookieOf(actor);
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, { headers: cookie ? { cookie } : {} });
  try {
    await once(socket, 'open');
    const answer = new Promise<LiveServerMessage>((resolve) => {
      socket.on('message', (data) => resolve(JSON.parse(String(data)) as LiveServerMessage));
    });
    socket.send(JSON.stringify({ type: 'subscribe', id: 's1', query, params }));
    const message = await answer;
    if (message.type === 'snapshot') return 'ok';
    if (message.type === 'error') return callableErrorCodeOf(message.error.status);
    return `unexpected ${message.type}`;
  } finally {
    socket.close();
  }
}

const cells = (matrix: Record<string, Row>) =>
  Object.entries(matrix).flatMap(([name, row]) => actors.map((actor) => ({ name, actor, row, expected: row.expect[actor] })));
const callableCells = [...callableMatrix].flatMap(([contract, row]) =>
  actors.map((actor) => ({ name: contract.name, contract, actor, row, expected: row.expect[actor] })),
);

describe('the authorization matrix', () => {
  it('has a row for every callable and live query registered in app.ts, and none for anything else', () => {
    expect([...callableMatrix.keys()].map((contract) => contract.name).sort()).toEqual(
      callables.map((callable) => callable.contract.name).sort(),
    );
    expect(Object.keys(liveQueryMatrix).sort()).toEqual(liveQueries.map((query) => query.contract.name).sort());
  });

  // A call that succeeds (a transfer, a removal) changes its world: every cell expected to succeed
  // gets a fresh one, unless its row only reads or adds (`addsOnly`): those share one. A refused
  // call changes nothing, so the cells expected to be refused share another. Both shared worlds are
  // made again every minute so that nothing in them (a hold) ends meanwhile. A refusal that wrongly
  // succeeds fails its own cell all the same.
  const sharedWorlds = new Map<'refused' | 'addsOnly', { world: Promise<World>; until: number }>();
  const sharedWorld = (kind: 'refused' | 'addsOnly') => {
    let shared = sharedWorlds.get(kind);
    if (!shared || shared.until < Date.now())
      sharedWorlds.set(kind, (shared = { world: newWorld(), until: Date.now() + 60_000 }));
    return shared.world;
  };
  const worldFor = (expected: string, row: Row) => {
    if (expected !== 'ok') return sharedWorld('refused');
    return row.addsOnly ? sharedWorld('addsOnly') : newWorld();
  };

  it.each(callableCells)('answers callable $name called by $actor with $expected', async ({ contract, actor, row, expected }) => {
    const world = await worldFor(expected, row);
    const { status, body } = await t.call(contract, row.input(world), cookieOf(actor));
    expect(status === 200 ? 'ok' : body.error.status).toBe(expected);
  });

  describe('live queries', () => {
    let world: World;
    beforeAll(async () => {
      world = await newWorld();
    });

    it.each(cells(liveQueryMatrix))(
      'answers live query $name watched by $actor with $expected',
      async ({ name, actor, row, expected }) => {
        expect(await subscribeAs(actor, name, row.input(world))).toBe(expected);
      },
    );
  });

  describe('file routes', () => {
    let world: World;
    beforeAll(async () => {
      world = await newWorld();
    });

    it.each(cells(routeMatrix))('answers GET $name asked by $actor with $expected', async ({ actor, row, expected }) => {
      const cookie = cookieOf(actor);
      const response = await t.app.inject({
        method: 'GET',
        url: row.input(world) as string,
        headers: cookie ? { cookie } : {},
      });
      // A file, or the redirect to where it is kept (a Google Wallet link).
      const served = response.statusCode === 200 || response.statusCode === 302;
      expect(served ? 'ok' : callableErrorCodeOf((response.json() as { error: { status: string } }).error.status)).toBe(expected);
    });
  });
});
