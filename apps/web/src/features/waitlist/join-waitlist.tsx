import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { GuestFields, type GuestDraft } from '../../lib/guest-fields';
import { AnchorLink } from '../../lib/links';
import { ErrorSentence } from '../../lib/page-state';
import plainField from '../../lib/plain-field.module.css';
import type { SoldOutType } from './event-waitlist';
import classes from './event-waitlist.module.css';

/**
 * Under a sold-out ticket type, or one not on sale yet with a pre-sale list: how its waiting list works, and joining it for 1 to an order's
 * worth of tickets. A visitor who is not signed in joins as a guest, with a name and an address
 * (the checkout's fields), or signs in and comes back here. A guest's place counts once they open
 * the link emailed to them (`linkSentTo`): this part then says so, and keeps saying it.
 */
export function JoinWaitlist({
  type,
  offerHours,
  signedIn,
  sessionPending,
  linkSentTo,
  pending,
  error,
  onJoin,
}: {
  type: SoldOutType;
  offerHours: number;
  signedIn: boolean;
  sessionPending: boolean;
  /** The address a guest's link went to, once they joined. */
  linkSentTo: string | null;
  pending: boolean;
  error: unknown;
  /** `guest`: without a session, who waits. */
  onJoin: (quantity: number, guest?: GuestDraft) => void;
}) {
  const intl = useIntl();
  const location = useLocation();
  const fieldId = useId();
  const [quantity, setQuantity] = useState(1);
  const [guest, setGuest] = useState<GuestDraft>({ name: '', email: '' });
  const choices = Array.from({ length: Math.max(1, type.maxQuantity) }, (_, index) => index + 1);
  // The form and its button are gone once the link is sent: the sentence takes the focus.
  const sent = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (linkSentTo !== null) sent.current?.focus();
  }, [linkSentTo]);
  return (
    <Stack gap="xs" className={classes.join} data-testid={`waitlist-join-${type.id}`}>
      <Text size="sm">
        {type.beforeSales ? (
          <FormattedMessage
            id="waitlist.join.introPresale"
            defaultMessage="When sales start, the places are offered to the people on the waiting list in the order they joined, before anyone else can buy; each offer is held for {hours, plural, one {# hour} other {# hours}}."
            values={{ hours: offerHours }}
          />
        ) : (
          <FormattedMessage
            id="waitlist.join.intro"
            defaultMessage="Places that come free are offered to the people on the waiting list, in the order they joined; each offer is held for {hours, plural, one {# hour} other {# hours}}."
            values={{ hours: offerHours }}
          />
        )}
      </Text>
      {linkSentTo === null && (
        <form
          onSubmit={(submitted) => {
            submitted.preventDefault();
            onJoin(quantity, signedIn ? undefined : guest);
          }}
        >
          <Stack gap="sm">
            {/* Until the session is known the visitor is taken for a guest, as the checkout takes them. */}
            {!signedIn && (
              <GuestFields
                value={guest}
                onChange={setGuest}
                note={
                  <FormattedMessage
                    id="waitlist.join.emailNote"
                    defaultMessage="We send the link that takes your place, and any offer of tickets, to this address. No account needed."
                  />
                }
              />
            )}
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
                disabled={sessionPending}
                aria-label={intl.formatMessage(
                  { id: 'waitlist.join.buttonFor', defaultMessage: 'Join the waiting list for {name}' },
                  { name: type.name },
                )}
              >
                <FormattedMessage id="waitlist.join.button" defaultMessage="Join the waiting list" />
              </Button>
            </Group>
            {!signedIn && (
              <Text size="sm">
                <FormattedMessage
                  id="waitlist.join.haveAccount"
                  defaultMessage="Have an account? <link>Sign in to join with it</link>"
                  values={{
                    link: (chunks) => (
                      <AnchorLink to="/sign-in" search={{ redirect: location.href }}>
                        {chunks}
                      </AnchorLink>
                    ),
                  }}
                />
              </Text>
            )}
          </Stack>
        </form>
      )}
      {/* There before the link is sent, so that a screen reader hears the sentence as it comes. */}
      <div aria-live="polite">
        {linkSentTo !== null && (
          <Text ref={sent} tabIndex={-1} size="sm" fw={500} data-testid="waitlist-link-sent">
            <FormattedMessage
              id="waitlist.join.linkSent"
              defaultMessage="Check your inbox: open the link we sent to {email} to take your place on the waiting list."
              values={{ email: <strong>{linkSentTo}</strong> }}
            />
          </Text>
        )}
      </div>
      {error !== null && (
        <Alert color="red" role="alert">
          <ErrorSentence error={error} />
        </Alert>
      )}
    </Stack>
  );
}
