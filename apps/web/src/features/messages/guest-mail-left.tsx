import type { GuestMailAllowance } from '@admit/shared/attendee-messages';
import { Text } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';

/** The query key of the guest-mail allowance, refreshed after each message sent. */
export const guestMailAllowanceKey = (eventId: string) => ['messages.guestMailAllowance', eventId] as const;

/**
 * How many more guests who never bought a ticket (typed into a guest list) may be emailed now, and
 * when more may go: buyers are not counted. Lower while nothing has been sold (decision 0053).
 */
export function GuestMailLeft({ allowance }: { allowance: GuestMailAllowance }) {
  const intl = useIntl();
  const at = allowance.resetsAt && intl.formatDate(allowance.resetsAt, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Text size="sm" c="dimmed" data-testid="guest-mail-left">
      <FormattedMessage
        id="messages.guestMailLeft"
        defaultMessage="{remaining, plural, =0 {You cannot email more guests who have not bought a ticket for now.} one {You can email # more guest who has not bought a ticket for now.} other {You can email # more guests who have not bought a ticket for now.}}{at, select, none {} other { More can go from {at}.}} People who bought their tickets are not counted.{established, select, yes {} other { The limit rises once your organization has sold a ticket.}}"
        values={{ remaining: allowance.remaining, at: at ?? 'none', established: allowance.established ? 'yes' : 'no' }}
      />
    </Text>
  );
}
