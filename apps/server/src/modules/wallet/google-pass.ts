import type { Locale } from '@admit/shared/locales';
import { imageUrl } from '../../platform/files/uploads';
import { signedJwt, type GoogleSigning } from './google-signing';
import { zonedIso, type WalletTicket } from './wallet-ticket';

// An "Add to Google Wallet" link (decision 0067): Google's save address with a JWT that carries the
// pass itself, an event ticket class (one per event) and an event ticket object (one per ticket), so
// that nothing has to be created through Google's API first. Google reads the class and object the
// first time the link is opened; changing them afterwards takes its REST API (not built yet).

/** Where Google saves the pass the JWT carries. */
export const googleSaveUrl = 'https://pay.google.com/gp/v/save/';

/** The notice on a pass signed with the development key: for whoever runs Admit, not for buyers. */
export const developmentLinkNotice = 'Development link: not signed by a Google Wallet issuer; Google will not accept it.';

/** A text in one language, as Google's `LocalizedString`. */
const localized = (value: string, language: Locale) => ({ defaultValue: { language, value: value || '–' } });

/** The JWT's claims: the event's class and the ticket's object, in the ticket's language. */
export function googlePassClaims(input: { ticket: WalletTicket; signing: GoogleSigning; publicUrl: string; issuedAt: Date }) {
  const { ticket, signing } = input;
  const { event } = ticket;
  const classId = `${signing.issuerId}.${event.id}`;
  const eventTicketClass = {
    id: classId,
    issuerName: ticket.organizer || 'Admit',
    // What Google asks of a class made through a save link; it reviews it then.
    reviewStatus: 'UNDER_REVIEW',
    eventId: event.id,
    eventName: localized(event.title, ticket.contentLocale),
    venue: { name: localized(event.venue, ticket.contentLocale), address: localized(event.venue, ticket.contentLocale) },
    // With the venue's offset, so that Google shows the venue's clock.
    dateTime: { start: zonedIso(event.startsAt, event.timeZone), end: zonedIso(event.endsAt, event.timeZone) },
    ...(ticket.logo
      ? {
          logo: {
            sourceUri: { uri: `${input.publicUrl}${imageUrl(ticket.logo.key)}` },
            contentDescription: localized(ticket.organizer, ticket.contentLocale),
          },
        }
      : {}),
  };
  const eventTicketObject = {
    id: `${signing.issuerId}.${ticket.id}`,
    classId,
    state: ticket.void ? 'INACTIVE' : 'ACTIVE',
    barcode: { type: 'QR_CODE', value: ticket.code, alternateText: ticket.code },
    ticketHolderName: ticket.holderName,
    ticketType: localized(ticket.ticketTypeName, ticket.contentLocale),
    reservationInfo: { confirmationCode: ticket.orderReference },
    ...(signing.development
      ? { textModulesData: [{ id: 'development', header: 'Development link', body: developmentLinkNotice }] }
      : {}),
  };
  return {
    iss: signing.clientEmail,
    aud: 'google',
    typ: 'savetowallet',
    iat: Math.floor(input.issuedAt.getTime() / 1000),
    origins: [input.publicUrl],
    payload: { eventTicketClasses: [eventTicketClass], eventTicketObjects: [eventTicketObject] },
  };
}

/** The "Add to Google Wallet" address of one ticket: Google's save address and the signed JWT. */
export function googleSaveLink(input: Parameters<typeof googlePassClaims>[0]): string {
  return `${googleSaveUrl}${signedJwt(input.signing, googlePassClaims(input))}`;
}
