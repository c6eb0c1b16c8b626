import type { MessageDescriptor } from '@formatjs/intl';

/**
 * Every email, text message and ticket PDF Admit sends, as ICU messages with their English text;
 * de.json in ./locales is the German catalog (mail.test.ts keeps it complete and its arguments equal).
 */
export const mailMessages = {
  greeting: { id: 'mail.greeting', defaultMessage: '{name, select, other {Hello {name},} none {Hello,}}' },
  footer: {
    id: 'mail.footer',
    defaultMessage: 'Admit — tickets and check-in. You get this email because someone used this address on {host}.',
  },
  buttonFallback: {
    id: 'mail.buttonFallback',
    defaultMessage: 'If the button does not work, copy this address into your browser:',
  },

  verifySubject: { id: 'mail.verify.subject', defaultMessage: 'Verify your email for Admit' },
  verifyIntro: {
    id: 'mail.verify.intro',
    defaultMessage: 'Verify your email address to finish signing up for Admit.',
  },
  verifyAction: { id: 'mail.verify.action', defaultMessage: 'Verify my email' },
  verifyIgnore: { id: 'mail.verify.ignore', defaultMessage: 'If you did not sign up, ignore this email.' },

  changeEmailSubject: { id: 'mail.changeEmail.subject', defaultMessage: 'Confirm your new email for Admit' },
  changeEmailIntro: {
    id: 'mail.changeEmail.intro',
    defaultMessage: 'Confirm that this is your new email address for Admit.',
  },
  changeEmailAction: { id: 'mail.changeEmail.action', defaultMessage: 'Use this address' },
  changeEmailIgnore: {
    id: 'mail.changeEmail.ignore',
    defaultMessage: 'Until you do, your account keeps its old address. If you did not ask for this, ignore this email.',
  },

  resetSubject: { id: 'mail.reset.subject', defaultMessage: 'Reset your Admit password' },
  resetIntro: { id: 'mail.reset.intro', defaultMessage: 'Choose a new password for Admit.' },
  resetAction: { id: 'mail.reset.action', defaultMessage: 'Choose a new password' },
  resetIgnore: {
    id: 'mail.reset.ignore',
    defaultMessage:
      'The link works once, for one hour. If you did not ask for this, ignore this email: your password stays as it is.',
  },

  linkSubject: { id: 'mail.link.subject', defaultMessage: 'Your sign-in link for Admit' },
  linkIntro: { id: 'mail.link.intro', defaultMessage: 'Sign in to Admit with this link.' },
  linkAction: { id: 'mail.link.action', defaultMessage: 'Sign in to Admit' },
  linkIgnore: {
    id: 'mail.link.ignore',
    defaultMessage:
      'The link works once, for 15 minutes. If you did not ask for it, ignore this email: nobody can sign in without opening it.',
  },

  inviteSubject: {
    id: 'mail.invite.subject',
    defaultMessage: '{inviter} invited you to {organization} on Admit',
  },
  inviteIntro: {
    id: 'mail.invite.intro',
    defaultMessage:
      '{inviter} invited you to join {organization} on Admit as {role, select, admin {an admin} staff {door staff} other {a member}}.',
  },
  inviteHow: {
    id: 'mail.invite.how',
    defaultMessage: 'Sign in or create an account with this email address, then accept the invitation.',
  },
  webhookDisabledSubject: {
    id: 'mail.webhookDisabled.subject',
    defaultMessage: 'A webhook of {organization} was turned off',
  },
  webhookDisabledIntro: {
    id: 'mail.webhookDisabled.intro',
    defaultMessage:
      'Every delivery to {url} has failed since {failingSince, date, long} at {failingSince, time, short} UTC, so Admit stopped sending to it.',
  },
  webhookDisabledHow: {
    id: 'mail.webhookDisabled.how',
    defaultMessage: 'Its delivery log shows what it answered. Once it works again, turn it back on: what waited is sent then.',
  },
  webhookDisabledAction: { id: 'mail.webhookDisabled.action', defaultMessage: 'See the webhooks' },
  webhookDisabledNote: {
    id: 'mail.webhookDisabled.note',
    defaultMessage: 'You get this email because you are an admin of {organization}.',
  },
  inviteAction: { id: 'mail.invite.action', defaultMessage: 'See the invitation' },
  inviteIgnore: {
    id: 'mail.invite.ignore',
    defaultMessage:
      'The invitation expires on {expiresAt, date, long} at {expiresAt, time, short} UTC. If you do not know {organization}, ignore this email.',
  },

  orderSubject: { id: 'mail.order.subject', defaultMessage: 'Your tickets for {event}' },
  orderIntro: {
    id: 'mail.order.intro',
    defaultMessage:
      'Thank you for your order. {count, plural, one {Your ticket for {event} is below and in the attached PDF.} other {Your # tickets for {event} are below and in the attached PDF.}}',
  },
  orderReference: { id: 'mail.order.reference', defaultMessage: 'Order {reference}' },
  orderWhen: { id: 'mail.order.when', defaultMessage: 'When' },
  orderWhere: { id: 'mail.order.where', defaultMessage: 'Where' },
  orderCalendar: { id: 'mail.order.calendar', defaultMessage: 'Calendar' },
  orderCalendarFile: { id: 'mail.order.calendarFile', defaultMessage: 'Apple, Outlook (.ics)' },
  orderLine: { id: 'mail.order.line', defaultMessage: '{quantity, number} × {ticketType} at {unitPrice} each' },
  orderLineDiscounted: {
    id: 'mail.order.lineDiscounted',
    defaultMessage: '{quantity, number} × {ticketType} at {unitPrice} each (code {code}: {discount} off each)',
  },
  orderTotal: { id: 'mail.order.total', defaultMessage: 'Total' },
  orderTicketsHeading: { id: 'mail.order.ticketsHeading', defaultMessage: 'Your tickets' },
  orderTicketHolder: { id: 'mail.order.ticketHolder', defaultMessage: 'For {name}' },
  orderTicketCode: { id: 'mail.order.ticketCode', defaultMessage: 'Code {code}' },
  orderQrAlt: { id: 'mail.order.qrAlt', defaultMessage: 'QR code of the ticket {code}' },
  orderAppleWallet: { id: 'mail.order.appleWallet', defaultMessage: 'Add to Apple Wallet' },
  orderGoogleWallet: { id: 'mail.order.googleWallet', defaultMessage: 'Add to Google Wallet' },
  orderAtTheDoor: {
    id: 'mail.order.atTheDoor',
    defaultMessage: 'Show the QR code at the door, on your phone or printed. Each code admits one person once.',
  },
  orderMyTickets: {
    id: 'mail.order.myTickets',
    defaultMessage: 'Your tickets are also in Admit under My tickets; once loaded there, they show without a network too.',
  },
  myTicketsAction: { id: 'mail.order.myTicketsAction', defaultMessage: 'My tickets' },
  guestOrderAction: { id: 'mail.order.guestAction', defaultMessage: 'Your order' },
  guestOrderNote: {
    id: 'mail.order.guestNote',
    defaultMessage:
      'The button opens your order: its tickets, their holders and the PDF. Keep this email. If you sign in to Admit with this address, the order is also in My tickets.',
  },
  guestLinkSubject: { id: 'mail.guestLink.subject', defaultMessage: 'Confirm your tickets for {event}' },
  guestLinkIntro: {
    id: 'mail.guestLink.intro',
    defaultMessage:
      '{count, plural, one {A ticket for {event} is held for you.} other {# tickets for {event} are held for you.}} Open the link below to confirm this address and get {count, plural, one {it} other {them}}.',
  },
  guestLinkHold: {
    id: 'mail.guestLink.hold',
    defaultMessage:
      'Until you do, the places are held for {minutes, plural, one {# minute} other {# minutes}}; then they go back on sale.',
  },
  guestLinkAction: { id: 'mail.guestLink.action', defaultMessage: 'Confirm and get my tickets' },
  guestLinkIgnore: {
    id: 'mail.guestLink.ignore',
    defaultMessage: 'If you did not order these tickets, ignore this email: nothing is issued without the link.',
  },
  waitlistJoinSubject: { id: 'mail.waitlistJoin.subject', defaultMessage: 'Confirm your place on the waiting list for {event}' },
  waitlistJoinIntro: {
    id: 'mail.waitlistJoin.intro',
    defaultMessage:
      'You asked to wait for {count, plural, one {a ticket} other {# tickets}} for {event}. Open the link below to confirm this address and take your place on the list.',
  },
  waitlistJoinAction: { id: 'mail.waitlistJoin.action', defaultMessage: 'Take my place on the list' },
  waitlistJoinIgnore: {
    id: 'mail.waitlistJoin.ignore',
    defaultMessage: 'If you did not ask for this, ignore this email: nobody is put on the list without the link.',
  },
  waitlistOfferSubject: { id: 'mail.waitlistOffer.subject', defaultMessage: 'Places came free for {event}' },
  waitlistOfferIntro: {
    id: 'mail.waitlistOffer.intro',
    defaultMessage:
      'You were on the waiting list for {event}: {count, plural, one {a ticket is} other {# tickets are}} now held for you, for {total}.',
  },
  waitlistOfferHold: {
    id: 'mail.waitlistOffer.hold',
    defaultMessage: 'The offer holds until {until}. Then the places go to the next person waiting.',
  },
  waitlistOfferPay: { id: 'mail.waitlistOffer.pay', defaultMessage: 'Pay for my tickets' },
  waitlistOfferAccept: { id: 'mail.waitlistOffer.accept', defaultMessage: 'Accept my tickets' },
  waitlistOfferIgnore: {
    id: 'mail.waitlistOffer.ignore',
    defaultMessage: 'Not going after all? Do nothing, or leave the waiting list on the event’s page.',
  },
  orderFooter: {
    id: 'mail.order.footer',
    defaultMessage: 'Admit — tickets and check-in. You get this email because of an order with this address on {host}.',
  },

  refundSubject: { id: 'mail.refund.subject', defaultMessage: 'Refund for {event}' },
  refundIntro: { id: 'mail.refund.intro', defaultMessage: 'We refunded {amount} for {event}.' },
  refundReason: { id: 'mail.refund.reason', defaultMessage: 'Reason: {reason}' },
  refundVoidedTickets: {
    id: 'mail.refund.voidedTickets',
    defaultMessage:
      '{count, plural, one {# ticket of your order is no longer valid.} other {# tickets of your order are no longer valid.}} {remaining, plural, =0 {} one {Your other ticket stays valid.} other {Your other # tickets stay valid.}}',
  },
  refundTiming: {
    id: 'mail.refund.timing',
    defaultMessage: 'The money goes back to the card you paid with. Depending on your bank, it can take 5 to 10 days to show.',
  },

  lateRefundSubject: { id: 'mail.lateRefund.subject', defaultMessage: 'Your payment for {event} was refunded' },
  lateRefundIntro: {
    id: 'mail.lateRefund.intro',
    defaultMessage:
      'Your payment of {amount} for {event} arrived after your reservation had ended, and by then the tickets were gone.',
  },
  lateRefundOutcome: {
    id: 'mail.lateRefund.outcome',
    defaultMessage: 'Your payment was refunded in full, and no tickets were issued. We are sorry.',
  },
  lateRefundAction: { id: 'mail.lateRefund.action', defaultMessage: 'See the event' },

  cancelledSubject: { id: 'mail.cancelled.subject', defaultMessage: '{event} is cancelled' },
  cancelledIntro: {
    id: 'mail.cancelled.intro',
    defaultMessage: 'The organizer has cancelled {event}, planned for {when}. Your tickets are no longer valid.',
  },
  cancelledMessage: { id: 'mail.cancelled.message', defaultMessage: 'The organizer’s message: {message}' },
  cancelledRefund: {
    id: 'mail.cancelled.refund',
    defaultMessage: 'We are refunding everything you paid, {amount}. You do not need to do anything.',
  },
  cancelledFree: { id: 'mail.cancelled.free', defaultMessage: 'Your tickets were free, so there is nothing to refund.' },
  cancelledOrders: {
    id: 'mail.cancelled.orders',
    defaultMessage:
      '{count, plural, one {This is about your order {references}.} other {This is about all # of your orders: {references}.}}',
  },

  attendeeMessageIntro: {
    id: 'mail.attendeeMessage.intro',
    defaultMessage: '{organizer} wrote to the ticket holders of {event} ({when}):',
  },
  attendeeMessageAction: { id: 'mail.attendeeMessage.action', defaultMessage: 'See the event' },
  attendeeMessageFooter: {
    id: 'mail.attendeeMessage.footer',
    defaultMessage:
      'Admit – tickets and check-in. You get this email because you hold a ticket for {event} by {organizer}; it was sent through {host}.',
  },

  changeNoticeSubject: { id: 'mail.changeNotice.subject', defaultMessage: '{event}: the time or place has changed' },
  changeNoticeIntro: {
    id: 'mail.changeNotice.intro',
    defaultMessage: '{organizer} has changed the time or place of {event}. Your tickets stay valid.',
  },
  changeNoticeStarts: { id: 'mail.changeNotice.starts', defaultMessage: 'Starts: {after} (was {before})' },
  changeNoticeEnds: { id: 'mail.changeNotice.ends', defaultMessage: 'Ends: {after} (was {before})' },
  changeNoticeVenue: { id: 'mail.changeNotice.venue', defaultMessage: 'Where: {after} (was {before})' },
  changeNoticeCalendar: {
    id: 'mail.changeNotice.calendar',
    defaultMessage: 'Open the calendar file attached to this email to update the event in your calendar.',
  },

  ticketPdfTitle: { id: 'ticketPdf.title', defaultMessage: 'Tickets for {event}' },
  ticketPdfPosition: { id: 'ticketPdf.position', defaultMessage: 'Ticket {index, number} of {count, number}' },
  ticketPdfPrice: { id: 'ticketPdf.price', defaultMessage: 'Price: {price}' },
  ticketPdfDiscount: { id: 'ticketPdf.discount', defaultMessage: 'Code {code}: {discount} off' },
  ticketPdfCode: { id: 'ticketPdf.code', defaultMessage: 'With code {code}' },
  ticketPdfAtTheDoor: {
    id: 'ticketPdf.atTheDoor',
    defaultMessage: 'Show this QR code at the door, on your phone or printed. It admits one person once.',
  },

  walletPassDescription: { id: 'walletPass.description', defaultMessage: 'Ticket for {event}' },
  walletPassEvent: { id: 'walletPass.event', defaultMessage: 'Event' },
  walletPassWhen: { id: 'walletPass.when', defaultMessage: 'When' },
  walletPassWhere: { id: 'walletPass.where', defaultMessage: 'Where' },
  walletPassHolder: { id: 'walletPass.holder', defaultMessage: 'Name' },
  walletPassTicketType: { id: 'walletPass.ticketType', defaultMessage: 'Ticket' },
  walletPassOrder: { id: 'walletPass.order', defaultMessage: 'Order' },
  walletPassOrganizer: { id: 'walletPass.organizer', defaultMessage: 'Organizer' },
  walletPassAtTheDoor: {
    id: 'walletPass.atTheDoor',
    defaultMessage: 'Show this QR code at the door. It admits one person once.',
  },

  transferOfferSubject: { id: 'mail.transferOffer.subject', defaultMessage: '{from} sent you a ticket for {event}' },
  transferOfferIntro: {
    id: 'mail.transferOffer.intro',
    defaultMessage:
      '{from} sent you a ticket for {event} ({ticketType}). Accept it, and it is issued in your name with a code of its own.',
  },
  transferOfferUntil: { id: 'mail.transferOffer.until', defaultMessage: 'You can accept it until {until}.' },
  transferOfferAction: { id: 'mail.transferOffer.action', defaultMessage: 'Accept the ticket' },
  transferOfferIgnore: {
    id: 'mail.transferOffer.ignore',
    defaultMessage:
      'Not for you, or you cannot go? Decline it on the same page, or ignore this email: the ticket stays with {from}.',
  },
  transferTicketSubject: { id: 'mail.transferTicket.subject', defaultMessage: 'Your ticket for {event}' },
  transferTicketIntro: {
    id: 'mail.transferTicket.intro',
    defaultMessage: 'The ticket {from} sent you is yours now. Its PDF is attached.',
  },
  transferTicketAction: { id: 'mail.transferTicket.action', defaultMessage: 'Open my ticket' },
  transferTicketNote: {
    id: 'mail.transferTicket.note',
    defaultMessage: 'The button opens your ticket. Keep this email: it is your way back to it.',
  },
  transferGivenSubject: { id: 'mail.transferGiven.subject', defaultMessage: '{to} accepted your ticket for {event}' },
  transferGivenIntro: {
    id: 'mail.transferGiven.intro',
    defaultMessage:
      '{to} accepted the ticket you sent for {event} ({ticketType}). It was issued in their name with a new code: the old one no longer admits anyone.',
  },
  smsCode: {
    id: 'sms.code',
    defaultMessage: '{code} is your Admit sign-in code. It expires in 5 minutes.',
  },
} satisfies Record<string, MessageDescriptor>;
