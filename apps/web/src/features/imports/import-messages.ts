import type { ImportField, ImportRowError } from '@admit/shared/csv';
import { useIntl, type IntlShape } from 'react-intl';

/** What is wrong with a row, in a sentence (shown in the report and written in the error report). */
export function rowErrorMessage(intl: IntlShape, error: ImportRowError): string {
  switch (error.code) {
    case 'email-missing':
      return intl.formatMessage({
        id: 'imports.error.emailMissing',
        defaultMessage: 'The row has neither an email address nor a name.',
      });
    case 'email-invalid':
      return intl.formatMessage({ id: 'imports.error.emailInvalid', defaultMessage: 'The email address is not valid.' });
    case 'ticket-type-unknown':
      return intl.formatMessage({
        id: 'imports.error.ticketTypeUnknown',
        defaultMessage: 'The ticket type is not one of this event’s.',
      });
    case 'quantity-invalid':
      return intl.formatMessage({
        id: 'imports.error.quantityInvalid',
        defaultMessage: 'The quantity must be a whole number from 1 to 1,000.',
      });
    case 'capacity-exceeded':
      return intl.formatMessage({
        id: 'imports.error.capacityExceeded',
        defaultMessage: 'Not enough places are left for this row.',
      });
    case 'duplicate-row':
      return intl.formatMessage(
        { id: 'imports.error.duplicate', defaultMessage: 'This guest is already on line {line, number}.' },
        { line: error.line ?? 0 },
      );
    case 'too-long':
      return intl.formatMessage(
        {
          id: 'imports.error.tooLong',
          defaultMessage:
            '{field, select, name {The name} email {The email address} ticketType {The ticket type} quantity {The quantity} note {The note} other {The ID}} is too long.',
        },
        { field: error.field ?? 'other' },
      );
  }
}

/** The names of the fields a column can be matched to. */
export function useFieldLabels(): Record<ImportField, string> {
  const intl = useIntl();
  return {
    name: intl.formatMessage({ id: 'imports.field.name', defaultMessage: 'Name' }),
    email: intl.formatMessage({ id: 'imports.field.email', defaultMessage: 'Email' }),
    ticketType: intl.formatMessage({ id: 'imports.field.ticketType', defaultMessage: 'Ticket type' }),
    quantity: intl.formatMessage({ id: 'imports.field.quantity', defaultMessage: 'Quantity' }),
    note: intl.formatMessage({ id: 'imports.field.note', defaultMessage: 'Note' }),
    guestId: intl.formatMessage({ id: 'imports.field.guestId', defaultMessage: 'Guest ID' }),
  };
}
