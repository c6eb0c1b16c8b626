import { recordActivity } from './order-activity';
import { tokenOpens } from './order-access';
import { orderTopics } from './topics';
import { tellOfTransfer } from './transfer-emails';

/**
 * What a holder's change to a ticket does to its order: its timeline line, a transfer's emails, the
 * topics its watchers listen to, and whether a guest's token opens it (the tickets module's
 * TicketChangeOnOrder, handed it by composition.ts).
 */
export const orderSideOfTicketChanges = { record: recordActivity, topics: orderTopics, tokenOpens, tellOfTransfer };
