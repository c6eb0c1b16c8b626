import type { Config } from '../../platform/config';
import { linkToken } from '../../platform/auth/link-tokens';
import { mailIntl } from '../../platform/mail/compose';
import { mailMessages } from '../../platform/mail/messages';
import type { AppleSigning } from './apple-signing';
import { passStartText, type WalletTicket } from './wallet-ticket';

/** The notice on the back of a pass signed by the development chain: for whoever runs Admit, not for buyers. */
export const developmentPassNotice = 'Development pass: not signed by Apple; Wallet will not accept it.';

/**
 * The token Wallet will show Admit's pass web service to ask for this pass again: a keyed hash of the
 * ticket's id, so that nothing is stored and only this server can make it (as the emails' links).
 */
export const passAuthenticationToken = (config: Pick<Config, 'AUTH_SECRET'>, ticketId: string) =>
  linkToken(config, 'apple wallet pass', ticketId);

/** A text as a pass field's value: never empty, which Wallet refuses. */
const shown = (text: string) => text || '–';

/**
 * One ticket as an Apple Wallet pass (an `eventTicket`), signed: a `.pkpass` file's bytes. Its words
 * are in the ticket's language (`ticket.locale`), the time on the venue's clock; its barcode is the
 * ticket's signed code as a QR code, as on the PDF. passkit-generator (with node-forge) is loaded
 * with the first pass, not as each process starts.
 */
export async function applePassFile(input: {
  ticket: WalletTicket;
  signing: AppleSigning;
  /** `icon.png`, `logo.png`… (pass-images.ts). */
  images: Record<string, Buffer>;
  publicUrl: string;
  config: Pick<Config, 'AUTH_SECRET'>;
}): Promise<Buffer> {
  const { PassType, PKPass } = await import('passkit-generator');
  const { ticket, signing } = input;
  const intl = mailIntl(ticket.locale);
  const pass = new PKPass(input.images, signing.certificates, {
    formatVersion: 1,
    passTypeIdentifier: signing.passTypeId,
    teamIdentifier: signing.teamId,
    serialNumber: ticket.id,
    organizationName: shown(ticket.organizer),
    description: intl.formatMessage(mailMessages.walletPassDescription, { event: ticket.event.title }),
    logoText: shown(ticket.organizer),
    // The colours of the emails and the PDF: ink and muted grey on white.
    backgroundColor: 'rgb(255, 255, 255)',
    foregroundColor: 'rgb(33, 37, 41)',
    labelColor: 'rgb(134, 142, 150)',
    authenticationToken: passAuthenticationToken(input.config, ticket.id),
    webServiceURL: `${input.publicUrl}/wallet/apple`,
    ...(ticket.void ? { voided: true } : {}),
  });

  const fields = new PassType('eventTicket');
  fields.primaryFields.push({
    key: 'event',
    label: intl.formatMessage(mailMessages.walletPassEvent),
    value: shown(ticket.event.title),
  });
  fields.secondaryFields.push(
    {
      key: 'when',
      label: intl.formatMessage(mailMessages.walletPassWhen),
      value: passStartText(ticket.locale, ticket.event.startsAt, ticket.event.timeZone),
    },
    { key: 'where', label: intl.formatMessage(mailMessages.walletPassWhere), value: shown(ticket.event.venue) },
  );
  fields.auxiliaryFields.push(
    { key: 'holder', label: intl.formatMessage(mailMessages.walletPassHolder), value: shown(ticket.holderName) },
    {
      key: 'ticketType',
      label: intl.formatMessage(mailMessages.walletPassTicketType),
      value: shown(ticket.ticketTypeName),
    },
  );
  fields.backFields.push(
    { key: 'atTheDoor', value: intl.formatMessage(mailMessages.walletPassAtTheDoor) },
    { key: 'order', label: intl.formatMessage(mailMessages.walletPassOrder), value: ticket.orderReference },
    { key: 'organizer', label: intl.formatMessage(mailMessages.walletPassOrganizer), value: shown(ticket.organizer) },
  );
  if (signing.development) fields.backFields.push({ key: 'development', value: developmentPassNotice });
  pass.types.push(fields);

  pass.setBarcodes({ format: 'PKBarcodeFormatQR', message: ticket.code, messageEncoding: 'iso-8859-1', altText: ticket.code });
  pass.setRelevantDate(ticket.event.startsAt);
  return pass.getAsBuffer();
}
