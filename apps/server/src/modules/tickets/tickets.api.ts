// The tickets module's surface: what other modules may call. Everything else in this folder is its own.
export {
  admitTicket,
  claimReceivedTickets,
  issueTickets,
  issueTicketsForOrders,
  issueTicketsInStatement,
  reissueTicket,
  revalidateTickets,
  voidTickets,
  withdrawAdmission,
  type TicketsToIssue,
} from './issue-tickets';
export { newTicketCode } from './ticket-code';
export type { TicketPdfInput } from './ticket-pdf';
export { ticketsPdf } from './ticket-pdf-on-demand';
export { ticketQrPng } from './ticket-qr';
export { validTicketsOf } from './valid-tickets';
export { registerTicketPdfRoute } from './ticket-pdf.routes';
export {
  fileIdPattern,
  noSuchTickets,
  ticketFileAccess,
  ticketFileSource,
  tokenOf,
  type TicketFileDeps,
  type TicketFileRefusal,
  type TicketFileSource,
} from './ticket-file-access';
export { ticketHolderCallables, type TicketChangeOnOrder } from './ticket-holders';
export { ticketsLiveQueries } from './tickets.live';
export { eventTicketsTopic, userTicketsTopic, eventTransfersTopic, ticketTopic } from './topics';
export { ticketAccessToken, transferToken } from './ticket-access';
export { transferCallables } from './transfers.functions';
export { resaleCallables } from './resale.functions';
export { resaleOfTickets } from './resale-state';
export { holdListings, keepListings, releaseListings, sellListings, type SoldListing } from './resale';
export { transfersLiveQueries } from './transfers.live';
export { transferSettingsOf, transfersCloseAt, transferUntil } from './transfer-window';
export { emitTicketWebhook, ticketResource, ticketResources } from './ticket-resource';
