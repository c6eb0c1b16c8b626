import type { localizeTicketTypeName } from '@admit/shared/localize-event';
import type { QuestionRow } from '@admit/shared/questions';
import { hasQuestionsFor } from '@admit/shared/questions-asked';

// Which tickets of an order are asked questions, as the picker needs them before the questions' step
// (attendee-step.tsx, a chunk of its own with its fields and the phone number rules) is loaded.

type TypeName = ReturnType<typeof localizeTicketTypeName>;

/** One ticket of the order that is asked questions: its type, and which of the type's tickets it is. */
export interface AskedTicket {
  key: string;
  ticketTypeId: string;
  typeName: TypeName;
  index: number;
  of: number;
}

/** The tickets of the chosen lines whose types are asked anything, one by one. */
export function askedTickets(
  lines: readonly { ticketTypeId: string; quantity: number }[],
  questions: readonly QuestionRow[],
  typeNameOf: (ticketTypeId: string) => TypeName,
): AskedTicket[] {
  return lines
    .filter((line) => hasQuestionsFor(questions, line.ticketTypeId))
    .flatMap((line) =>
      Array.from({ length: line.quantity }, (_, index) => ({
        key: `${line.ticketTypeId}.${index}`,
        ticketTypeId: line.ticketTypeId,
        typeName: typeNameOf(line.ticketTypeId),
        index,
        of: line.quantity,
      })),
    );
}
