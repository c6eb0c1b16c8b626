import { fieldIssuesIn, type CallableErrorCode } from '@admit/shared/callable-errors';
import { failureOf, type FailureDetails, type FailureReason } from '@admit/shared/failures';
import { SoldOutDetails } from '@admit/shared/orders';
import { defineMessages, useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { CallError } from './callable';
import { untyped } from './messages';

const messages = untyped(
  defineMessages({
    'invalid-argument': {
      id: 'error.invalidArgument',
      defaultMessage: 'Some of what you entered is not valid. Check the highlighted fields.',
    },
    'failed-precondition': { id: 'error.failedPrecondition', defaultMessage: 'This cannot be done in the current state.' },
    unauthenticated: { id: 'error.unauthenticated', defaultMessage: 'Please sign in to continue.' },
    'permission-denied': { id: 'error.permissionDenied', defaultMessage: 'Your role does not allow this.' },
    'not-found': { id: 'error.notFound', defaultMessage: 'We could not find that. It may have been removed.' },
    'already-exists': { id: 'error.alreadyExists', defaultMessage: 'That already exists.' },
    aborted: { id: 'error.aborted', defaultMessage: 'Someone else changed this at the same moment. Please try again.' },
    'resource-exhausted': {
      id: 'error.resourceExhausted',
      defaultMessage: 'Too many requests. Please wait a moment and try again.',
    },
    cancelled: { id: 'error.cancelled', defaultMessage: 'The request was cancelled.' },
    internal: { id: 'error.internal', defaultMessage: 'Something went wrong on our side. Please try again.' },
    unimplemented: { id: 'error.unimplemented', defaultMessage: 'This is not available yet.' },
    unavailable: {
      id: 'error.unavailable',
      defaultMessage: 'The service is unavailable right now. Please try again in a moment.',
    },
    'deadline-exceeded': {
      id: 'error.deadlineExceeded',
      defaultMessage: 'The server took too long to answer. Please try again.',
    },
    soldOut: {
      id: 'error.soldOut',
      defaultMessage:
        '{remaining, plural, =0 {Sorry, these tickets are sold out.} one {Only # ticket is left.} other {Only # tickets are left.}}',
    },
    offline: { id: 'error.offline', defaultMessage: 'You seem to be offline. Check your connection and try again.' },
  } satisfies Record<CallableErrorCode | 'soldOut' | 'offline', unknown>),
);

/**
 * A sentence for every reason a callable gives for refusing (declared in packages/shared): a
 * reason added there without a message here does not compile. The details are the values.
 */
const failureMessages = untyped(
  defineMessages({
    'event-not-on-sale': { id: 'error.reason.eventNotOnSale', defaultMessage: 'Tickets for this event are not on sale.' },
    'sales-not-started': { id: 'error.reason.salesNotStarted', defaultMessage: 'Sales for these tickets have not started yet.' },
    'sales-ended': { id: 'error.reason.salesEnded', defaultMessage: 'Sales for these tickets have ended.' },
    'not-pending': { id: 'error.reason.notPending', defaultMessage: 'This order can no longer be paid.' },
    'not-refundable': { id: 'error.reason.notRefundable', defaultMessage: 'This order cannot be refunded any more.' },
    'nothing-to-refund': { id: 'error.reason.nothingToRefund', defaultMessage: 'Nothing is left to refund on this order.' },
    'refund-refused': { id: 'error.reason.refundRefused', defaultMessage: 'The payment provider refused this refund.' },
    'no-ticket-types': { id: 'editor.publish.needsTypes', defaultMessage: 'Add a ticket type before publishing.' },
    'event-closed': {
      id: 'error.reason.eventClosed',
      defaultMessage:
        '{status, select, cancelled {This event was cancelled: nothing can be added to it.} other {This event has ended: nothing can be added to it.}}',
    },
    'not-draft': {
      id: 'error.reason.notDraft',
      defaultMessage: '{status, select, published {This event is already published.} other {Only a draft can be published.}}',
    },
    'capacity-below-taken': {
      id: 'error.reason.capacityBelowTaken',
      defaultMessage: 'The capacity cannot be below the {taken, number} places already sold or held.',
    },
    'fixed-after-sales': {
      id: 'error.reason.fixedAfterSales',
      defaultMessage:
        '{field, select, currency {The currency} other {The time zone}} cannot change once the event has been on sale.',
    },
    'move-not-allowed': {
      id: 'error.reason.moveNotAllowed',
      defaultMessage:
        'This cannot be done while the event is {status, select, draft {a draft} published {on sale} sales_closed {closed for sales} ended {over} other {cancelled}}.',
    },
    'has-sales': {
      id: 'error.reason.hasSales',
      defaultMessage: 'Tickets are already sold or held: close sales or cancel the event instead.',
    },
    'ticket-type-ordered': {
      id: 'error.reason.ticketTypeOrdered',
      defaultMessage: 'This ticket type has orders and cannot be removed: hide it instead.',
    },
    'event-has-orders': {
      id: 'error.reason.eventHasOrders',
      defaultMessage: 'This event has orders and cannot be deleted: cancel it instead.',
    },
    'not-cancellable': {
      id: 'error.reason.notCancellable',
      defaultMessage: 'An event that is over cannot be cancelled.',
    },
    'holder-fixed': {
      id: 'error.reason.holderFixed',
      defaultMessage: 'The name on this ticket can no longer change: the event has started or the ticket is no longer valid.',
    },
    'two-factor-required': {
      id: 'error.twoFactorRequired',
      defaultMessage:
        'This organization requires two-factor authentication. Turn it on in your account settings, then try again.',
    },
    'owner-two-factor-off': {
      id: 'error.reason.ownerTwoFactorOff',
      defaultMessage: 'Turn on two-factor authentication for yourself first.',
    },
    owner: { id: 'error.reason.owner', defaultMessage: 'The owner keeps their role: transfer the ownership first.' },
    self: { id: 'error.reason.self', defaultMessage: 'You already own this organization.' },
    member: { id: 'error.reason.member', defaultMessage: 'That person is already a member.' },
    unverified: { id: 'error.reason.unverified', defaultMessage: 'Verify your email address first.' },
    expired: { id: 'error.reason.expired', defaultMessage: 'This invitation has expired.' },
    accepted: { id: 'error.reason.accepted', defaultMessage: 'This invitation has already been accepted.' },
    declined: { id: 'error.reason.declined', defaultMessage: 'This invitation was declined.' },
    revoked: { id: 'error.reason.revoked', defaultMessage: 'This invitation was withdrawn.' },
    'too-many-holds': {
      id: 'error.reason.tooManyHolds',
      defaultMessage:
        'You can hold at most {limit, plural, one {# ticket} other {# tickets}} of this event at a time. Pay for or cancel your open orders first.',
    },
    'too-many-orders': {
      id: 'error.reason.tooManyOrders',
      defaultMessage: 'Too many orders in a short time. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
    },
    'too-many-invitations': {
      id: 'error.reason.tooManyInvitations',
      defaultMessage:
        'Too many invitations were sent recently. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
    },
    'buyer-limit': {
      id: 'error.reason.buyerLimit',
      defaultMessage:
        '{have, plural, =0 {You can have at most {limit, plural, one {# ticket} other {# tickets}} {scope, select, event {of this event} other {of this type}}.} other {You can have at most {limit, plural, one {# ticket} other {# tickets}} {scope, select, event {of this event} other {of this type}}, and you have {have, number} already (counting orders you have not paid yet).}}',
    },
    'no-recipients': {
      id: 'error.reason.noRecipients',
      defaultMessage: 'Nobody holds a valid ticket that matches your choice: there is no one to send this to.',
    },
    'too-many-messages': {
      id: 'error.reason.tooManyMessages',
      defaultMessage:
        'Many messages were sent for this event in the last hour. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
    },
    'guest-mail-limit': {
      id: 'error.reason.guestMailLimit',
      defaultMessage:
        'This would email {requested, plural, one {# guest} other {# guests}} who have not bought a ticket, but {scope, select, account {your account} other {this organization}} can email {remaining, plural, =0 {no more of them} other {only # more}} for now. More can go from {at}.',
    },
    'unknown-code': {
      id: 'error.reason.unknownCode',
      defaultMessage: 'This event has no such code. Check how it is written.',
    },
    'code-not-valid-now': {
      id: 'error.reason.codeNotValidNow',
      defaultMessage: '{window, select, before {This code works from {from}.} other {This code has stopped working.}}',
    },
    'code-used-up': {
      id: 'error.reason.codeUsedUp',
      defaultMessage:
        '{remaining, plural, =0 {This code has been used up.} one {Only # more ticket can be bought with this code.} other {Only # more tickets can be bought with this code.}}',
    },
    'code-changed': {
      id: 'error.reason.codeChanged',
      defaultMessage: 'The code was changed while you ordered. Please order again.',
    },
    'code-min-quantity': {
      id: 'error.reason.codeMinQuantity',
      defaultMessage:
        'This code needs at least {minQuantity, plural, one {# ticket} other {# tickets}} of its types in one order.',
    },
    'code-buyer-limit': {
      id: 'error.reason.codeBuyerLimit',
      defaultMessage:
        '{have, plural, =0 {One person can buy at most {limit, plural, one {# ticket} other {# tickets}} with this code.} other {One person can buy at most {limit, plural, one {# ticket} other {# tickets}} with this code, and you have {have, number} already.}}',
    },
    'too-many-code-attempts': {
      id: 'error.reason.tooManyCodeAttempts',
      defaultMessage: 'Too many wrong codes. Please try again in {minutes, plural, one {# minute} other {# minutes}}.',
    },
    'code-in-use': {
      id: 'error.reason.codeInUse',
      defaultMessage: 'Orders used this code, so it is kept. To stop it, set when it stops working.',
    },
    'code-limit-below-used': {
      id: 'error.reason.codeLimitBelowUsed',
      defaultMessage:
        '{used, plural, one {# ticket was} other {# tickets were}} bought with this code already: the limit cannot be lower.',
    },
    'code-taken': { id: 'error.reason.codeTaken', defaultMessage: 'This event already has a code written this way.' },
    'not-hidden-type': {
      id: 'error.reason.notHiddenType',
      defaultMessage:
        'A code without a discount unlocks hidden ticket types only. Hide the ticket type first, or give the code a discount.',
    },
    'question-in-use': {
      id: 'error.reason.questionInUse',
      defaultMessage: '“{by}” is shown depending on this question’s answers. Change or delete that question first.',
    },
    'bad-condition': {
      id: 'error.reason.badCondition',
      defaultMessage: 'A question can only depend on an earlier choice question, and on options it has.',
    },
    'too-many-questions': {
      id: 'error.reason.tooManyQuestions',
      defaultMessage: 'An event can have at most {limit, number} questions.',
    },
    'answers-closed': {
      id: 'error.reason.answersClosed',
      defaultMessage: 'Answers can no longer be changed: the event has started.',
    },
    'private-address': {
      id: 'error.reason.privateAddress',
      defaultMessage: 'Webhooks cannot go to a private, loopback or link-local address. Use a public address.',
    },
    unresolvable: {
      id: 'error.reason.unresolvable',
      defaultMessage: 'This address’s host name does not resolve. Check it for typos.',
    },
    'too-many-endpoints': {
      id: 'error.reason.tooManyEndpoints',
      defaultMessage: 'An organization can have at most {max, number} webhooks.',
    },
    'waitlist-closed': {
      id: 'error.reason.waitlistClosed',
      defaultMessage: 'The waiting list for these tickets is closed.',
    },
    'not-sold-out': {
      id: 'error.reason.notSoldOut',
      defaultMessage:
        '{remaining, plural, one {# ticket is on sale again: you can buy it now instead of waiting.} other {# tickets are on sale again: you can buy them now instead of waiting.}}',
    },
    'already-on-list': {
      id: 'error.reason.alreadyOnList',
      defaultMessage: 'You are already on the waiting list for these tickets.',
    },
    'too-few-places': {
      id: 'error.reason.tooFewPlaces',
      defaultMessage:
        '{free, plural, =0 {No place is free now: this entry asked for more.} one {Only # place is free now: this entry asked for more.} other {Only # places are free now: this entry asked for more.}}',
    },
    'not-waiting': {
      id: 'error.reason.notWaiting',
      defaultMessage:
        '{status, select, unconfirmed {This entry is not confirmed yet: open the link we emailed.} offered {Places have already been offered for this entry.} accepted {The tickets for this entry have already been taken.} expired {This offer has ended.} left {This entry has left the waiting list.} removed {This entry was taken off the waiting list.} closed {The waiting list has closed.} other {This entry is no longer waiting.}}',
    },
    'transfers-closed': {
      id: 'error.reason.transfersClosed',
      defaultMessage:
        'Tickets to this event can no longer be passed on: the organizer turned it off, or it is too close to the start.',
    },
    'ticket-not-transferable': {
      id: 'error.reason.ticketNotTransferable',
      defaultMessage:
        'This ticket cannot be passed on: it is no longer valid, was used at the door, or is already on its way to someone.',
    },
    'transfer-decided': {
      id: 'error.reason.transferDecided',
      defaultMessage:
        '{status, select, accepted {This ticket has already been accepted.} cancelled {The sender took this ticket back.} declined {This ticket was declined.} void {This ticket can no longer be accepted: it was refunded or used.} other {This transfer is no longer open.}}',
    },
    'same-holder': {
      id: 'error.reason.sameHolder',
      defaultMessage: 'This ticket is already held by that email address. Enter the address of the person you are sending it to.',
    },
    'too-many-transfers': {
      id: 'error.reason.tooManyTransfers',
      defaultMessage:
        'This ticket has been sent {limit, plural, one {# time} other {# times}} already, which is as often as it can be.',
    },
    'resale-closed': {
      id: 'error.reason.resaleClosed',
      defaultMessage:
        'Tickets to this event cannot be offered for resale now: the organizer turned it off, or it is too close to the start.',
    },
    'ticket-not-resellable': {
      id: 'error.reason.ticketNotResellable',
      defaultMessage:
        'This ticket cannot be offered for resale: it is used, void, on its way to someone else, or was given to you.',
    },
    'resale-fee-changed': {
      id: 'error.reason.resaleFeeChanged',
      defaultMessage: 'The organizer changed the resale fee. Look at the new terms and offer the ticket again if you agree.',
    },
    'resale-held': {
      id: 'error.reason.resaleHeld',
      defaultMessage: 'Someone is paying for this ticket right now. If they do not finish, you can take it back.',
    },
  } satisfies Record<FailureReason, MessageDescriptor>),
);

/** The values of a reason's sentence: its details, a wait in whole minutes where it has one, times as people read them. */
function valuesOf(
  failure: FailureDetails,
  intl: IntlShape,
): FailureDetails & { minutes?: number; scope?: string; window?: 'before' | 'after'; from?: string; at?: string } {
  if (failure.reason === 'buyer-limit') return { ...failure, scope: failure.ticketTypeId === null ? 'event' : 'type' };
  if (failure.reason === 'guest-mail-limit') {
    const at = new Date(Date.now() + failure.retryAfterSeconds * 1000);
    return { ...failure, at: intl.formatDate(at, { dateStyle: 'medium', timeStyle: 'short' }) };
  }
  if (failure.reason === 'code-not-valid-now') {
    const before = failure.validFrom !== null && new Date(failure.validFrom) > new Date();
    const from = failure.validFrom
      ? intl.formatDate(failure.validFrom, { dateStyle: 'medium', timeStyle: 'short', timeZone: failure.timeZone })
      : '';
    return { ...failure, window: before ? 'before' : 'after', from };
  }
  return 'retryAfterSeconds' in failure ? { ...failure, minutes: Math.ceil(failure.retryAfterSeconds / 60) } : failure;
}

/** The reason a call was refused, with its details, as declared in packages/shared; null for any other error. */
export function failureOfError(error: unknown): FailureDetails | null {
  return error instanceof CallError ? failureOf(error.details) : null;
}

/** Turns any error into a sentence for people, in their language, from its code and details. */
export function useErrorMessage() {
  const intl = useIntl();
  return (error: unknown): string => {
    if (!(error instanceof CallError)) return intl.formatMessage(messages.internal);
    const failure = failureOf(error.details);
    if (failure) return intl.formatMessage(failureMessages[failure.reason], valuesOf(failure, intl));
    if (error.code === 'resource-exhausted') {
      const soldOut = SoldOutDetails.safeParse(error.details);
      if (soldOut.success) return intl.formatMessage(messages.soldOut, { remaining: soldOut.data.remaining });
    }
    if (error.code === 'internal' && error.httpStatus === 0) return intl.formatMessage(messages.offline);
    return intl.formatMessage(messages[error.code]);
  };
}

/** An error's sentence, for a part that loads this module lazily (lib/page-state.tsx). */
export function ErrorSentence({ error }: { error: unknown }) {
  return useErrorMessage()(error);
}

/** Field errors from an invalid-argument answer, keyed by field path (`lines.0.quantity`). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof CallError) || error.code !== 'invalid-argument') return {};
  return Object.fromEntries(fieldIssuesIn(error.details).map((field) => [field.path, field.message]));
}
