import type { CreateOrderOutput } from '@admit/shared/orders';
import type { z } from 'zod';
import { Alert, Stack } from '@mantine/core';
import { FormattedMessage, useIntl } from 'react-intl';
import { ButtonLink } from '../../lib/links';

/**
 * What the picker says once an order is made without a payment step: the tickets are ready (in My
 * tickets, a new tab from another site's frame), or, for a guest's free places, that they are held
 * until the link sent to the address is opened.
 */
export function PlacedNotice({
  placed,
  guestEmail,
  embedded,
}: {
  placed: z.infer<typeof CreateOrderOutput>;
  guestEmail: string;
  embedded: boolean;
}) {
  const intl = useIntl();
  return (
    <>
      {placed.status === 'paid' && (
        <Alert
          color="green"
          role="status"
          title={intl.formatMessage({ id: 'picker.done.title', defaultMessage: 'Your tickets are ready' })}
        >
          <Stack gap="xs">
            <FormattedMessage
              id="picker.done.body"
              defaultMessage="{count, plural, one {# ticket is} other {# tickets are}} waiting for you in My tickets."
              values={{ count: placed.ticketCount }}
            />
            <ButtonLink
              to="/tickets"
              size="xs"
              variant="white"
              style={{ alignSelf: 'flex-start' }}
              target={embedded ? '_blank' : undefined}
            >
              <FormattedMessage id="picker.done.link" defaultMessage="Show my tickets" />
            </ButtonLink>
          </Stack>
        </Alert>
      )}
      {placed.status === 'pending' && placed.total === 0 && placed.holdExpiresAt && (
        <Alert
          color="blue"
          role="status"
          title={intl.formatMessage({ id: 'picker.guest.sent.title', defaultMessage: 'Check your email' })}
        >
          <FormattedMessage
            id="picker.guest.sent.body"
            defaultMessage="We sent a link to {email}. Open it before {time} to get your tickets: they are held for you until then."
            values={{
              email: <strong>{guestEmail}</strong>,
              time: intl.formatTime(placed.holdExpiresAt, { hour: 'numeric', minute: '2-digit' }),
            }}
          />
        </Alert>
      )}
    </>
  );
}
