import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ButtonLink } from '../../lib/links';
import { ErrorSentence } from '../../lib/page-state';
import plainField from '../../lib/plain-field.module.css';
import type { SoldOutType } from './event-waitlist';
import classes from './event-waitlist.module.css';

/**
 * Under a sold-out ticket type: how its waiting list works, and joining it for 1 to an order's
 * worth of tickets. A visitor who is not signed in is asked to sign in first, and comes back here.
 */
export function JoinWaitlist({
  type,
  offerHours,
  signedIn,
  sessionPending,
  pending,
  error,
  onJoin,
}: {
  type: SoldOutType;
  offerHours: number;
  signedIn: boolean;
  sessionPending: boolean;
  pending: boolean;
  error: unknown;
  onJoin: (quantity: number) => void;
}) {
  const intl = useIntl();
  const location = useLocation();
  const fieldId = useId();
  const [quantity, setQuantity] = useState(1);
  const choices = Array.from({ length: Math.max(1, type.maxQuantity) }, (_, index) => index + 1);
  return (
    <Stack gap="xs" className={classes.join} data-testid={`waitlist-join-${type.id}`}>
      <Text size="sm">
        <FormattedMessage
          id="waitlist.join.intro"
          defaultMessage="Places that come free are offered to the people on the waiting list, in the order they joined; each offer is held for {hours, plural, one {# hour} other {# hours}}."
          values={{ hours: offerHours }}
        />
      </Text>
      {signedIn ? (
        <form
          onSubmit={(submitted) => {
            submitted.preventDefault();
            onJoin(quantity);
          }}
        >
          <Group gap="xs" align="center">
            <Text component="label" htmlFor={fieldId} size="sm">
              <FormattedMessage id="waitlist.join.quantity" defaultMessage="How many" />
            </Text>
            <select
              id={fieldId}
              className={`${plainField.field} ${classes.quantity}`}
              // The visible words first, then which type: several types may be sold out.
              aria-label={intl.formatMessage(
                { id: 'waitlist.join.quantityOf', defaultMessage: 'How many {name} tickets to wait for' },
                { name: type.name },
              )}
              value={quantity}
              onChange={(change) => setQuantity(Number(change.currentTarget.value))}
            >
              {choices.map((choice) => (
                <option key={choice} value={choice}>
                  {intl.formatNumber(choice)}
                </option>
              ))}
            </select>
            <Button
              type="submit"
              size="sm"
              loading={pending}
              aria-label={intl.formatMessage(
                { id: 'waitlist.join.buttonFor', defaultMessage: 'Join the waiting list for {name}' },
                { name: type.name },
              )}
            >
              <FormattedMessage id="waitlist.join.button" defaultMessage="Join the waiting list" />
            </Button>
          </Group>
        </form>
      ) : (
        <ButtonLink
          to="/sign-in"
          search={{ redirect: location.href }}
          size="sm"
          variant="light"
          disabled={sessionPending}
          style={{ alignSelf: 'flex-start' }}
        >
          <FormattedMessage id="waitlist.join.signIn" defaultMessage="Sign in to join the waiting list" />
        </ButtonLink>
      )}
      {error !== null && (
        <Alert color="red" role="alert">
          <ErrorSentence error={error} />
        </Alert>
      )}
    </Stack>
  );
}
