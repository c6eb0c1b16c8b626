import { contractRef } from '@admit/shared/contract-ref';
import { directionOf } from '@admit/shared/locales';
import type { acceptWaitlistOffer, leaveWaitlist, MyWaitlistEntryRow } from '@admit/shared/waitlist';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { formatMoment } from '../../lib/dates';
import { ButtonLink } from '../../lib/links';
import { ErrorSentence } from '../../lib/page-state';
import type { ShownName } from './event-waitlist';

const leaving = contractRef<typeof leaveWaitlist>('waitlist.leave');
const accepting = contractRef<typeof acceptWaitlistOffer>('waitlist.accept');

/**
 * One of the person's entries: a sentence that says where it is (announced as it changes: their
 * place moves up, places come free) and what they can do now. After an action the sentence takes
 * the focus, as the button pressed is gone. A guest's entry acts with the token of their emailed
 * link (`token`), and its offer's order opens with its own.
 */
export function MyWaitlistEntry({
  entry,
  name,
  timeZone,
  token,
  focus = false,
  onFocused,
  onLeft,
}: {
  entry: MyWaitlistEntryRow;
  name: ShownName;
  /** An offer's end is written in it, with its name: the event's, or the visitor's own. */
  timeZone: string;
  /** A guest's: the token of the link emailed to them. */
  token?: string;
  focus?: boolean;
  onFocused?: () => void;
  onLeft?: () => void;
}) {
  const intl = useIntl();
  const sentence = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!focus) return;
    sentence.current?.focus();
    onFocused?.();
  }, [focus, onFocused]);
  const leave = useMutation({
    mutationFn: () => callFunction(leaving, { entryId: entry.id, token }),
    // The line stays, saying so, though the list no longer counts a person who left.
    onMutate: onLeft,
    onSuccess: () => sentence.current?.focus(),
  });
  const accept = useMutation({
    mutationFn: () => callFunction(accepting, { entryId: entry.id, token }),
    onSuccess: () => sentence.current?.focus(),
  });
  const error = leave.error ?? accept.error;
  const typeName = (
    <span lang={name.locale} dir={name.locale ? directionOf(name.locale) : 'auto'}>
      {name.name}
    </span>
  );
  const { offer } = entry;
  const quantity = offer?.quantity ?? entry.quantity;
  // The offer's order: a guest's opens with its token, as the links of their emails open it.
  const orderSearch = offer?.accessToken ? { token: offer.accessToken } : {};

  let words: ReactNode;
  let actions: ReactNode = null;
  if (entry.status === 'unconfirmed') {
    words = (
      <FormattedMessage
        id="waitlist.mine.unconfirmed"
        defaultMessage="Open the link we emailed you to take your place on the waiting list for {quantity, number} × {name}."
        values={{ quantity, name: typeName }}
      />
    );
  } else if (entry.status === 'waiting') {
    words = (
      <FormattedMessage
        id="waitlist.mine.waiting"
        defaultMessage="You are number {position, number} on the waiting list for {quantity, number} × {name}."
        values={{ position: entry.position ?? 0, quantity, name: typeName }}
      />
    );
    actions = (
      <Button
        variant="default"
        size="xs"
        loading={leave.isPending}
        onClick={() => leave.mutate()}
        aria-label={intl.formatMessage(
          { id: 'waitlist.mine.leaveFor', defaultMessage: 'Leave the waiting list for {name}' },
          { name: name.name },
        )}
      >
        <FormattedMessage id="waitlist.mine.leave" defaultMessage="Leave the waiting list" />
      </Button>
    );
  } else if (entry.status === 'offered' && offer) {
    words = (
      <FormattedMessage
        id="waitlist.mine.offered"
        defaultMessage="{count, plural, one {# place for {name} came free for you: it is held until {time}.} other {# places for {name} came free for you: they are held until {time}.}}"
        values={{
          count: quantity,
          name: typeName,
          time: <time dateTime={offer.expiresAt}>{formatMoment(intl.locale, offer.expiresAt, timeZone)}</time>,
        }}
      />
    );
    actions = (
      <>
        {offer.total > 0 ? (
          <ButtonLink
            to="/orders/$orderId"
            params={{ orderId: offer.orderId }}
            search={orderSearch}
            size="xs"
            aria-label={intl.formatMessage(
              { id: 'waitlist.mine.payFor', defaultMessage: 'Pay now for {name}' },
              { name: name.name },
            )}
          >
            <FormattedMessage id="waitlist.mine.pay" defaultMessage="Pay now" />
          </ButtonLink>
        ) : (
          <Button
            size="xs"
            loading={accept.isPending}
            disabled={leave.isPending}
            onClick={() => accept.mutate()}
            aria-label={intl.formatMessage(
              { id: 'waitlist.mine.acceptFor', defaultMessage: 'Accept the tickets for {name}' },
              { name: name.name },
            )}
          >
            <FormattedMessage id="waitlist.mine.accept" defaultMessage="Accept the tickets" />
          </Button>
        )}
        <Button
          variant="default"
          size="xs"
          loading={leave.isPending}
          disabled={accept.isPending}
          onClick={() => leave.mutate()}
          aria-label={intl.formatMessage(
            { id: 'waitlist.mine.declineFor', defaultMessage: 'No thanks: let the places for {name} go' },
            { name: name.name },
          )}
        >
          <FormattedMessage id="waitlist.mine.decline" defaultMessage="No thanks" />
        </Button>
      </>
    );
  } else if (entry.status === 'accepted') {
    words = (
      <FormattedMessage
        id="waitlist.mine.accepted"
        defaultMessage="You have your tickets: {quantity, number} × {name}."
        values={{ quantity, name: typeName }}
      />
    );
    actions = offer && (
      <ButtonLink
        to="/orders/$orderId"
        params={{ orderId: offer.orderId }}
        search={orderSearch}
        size="xs"
        variant="light"
        aria-label={intl.formatMessage(
          { id: 'waitlist.mine.orderFor', defaultMessage: 'See your order for {name}' },
          { name: name.name },
        )}
      >
        <FormattedMessage id="waitlist.mine.order" defaultMessage="See your order" />
      </ButtonLink>
    );
  } else if (entry.status === 'expired' || entry.status === 'offered') {
    words = (
      <FormattedMessage
        id="waitlist.mine.expired"
        defaultMessage="The offer of {quantity, number} × {name} ended."
        values={{ quantity, name: typeName }}
      />
    );
  } else if (entry.status === 'closed') {
    words = (
      <FormattedMessage
        id="waitlist.mine.closed"
        defaultMessage="The waiting list for {name} closed before places came free."
        values={{ name: typeName }}
      />
    );
  } else if (entry.status === 'removed') {
    words = (
      <FormattedMessage
        id="waitlist.mine.removed"
        defaultMessage="The organizer took you off the waiting list for {name}."
        values={{ name: typeName }}
      />
    );
  } else {
    words = (
      <FormattedMessage
        id="waitlist.mine.left"
        defaultMessage="You left the waiting list for {name}."
        values={{ name: typeName }}
      />
    );
  }

  return (
    <Stack gap="xs" data-testid="waitlist-entry" data-status={entry.status} data-ticket-type-id={entry.ticketTypeId}>
      {/* One element for every status, so that a screen reader hears each change of it. */}
      <Text ref={sentence} tabIndex={-1} aria-live="polite">
        {words}
      </Text>
      {actions && <Group gap="xs">{actions}</Group>}
      {error && (
        <Alert color="red" role="alert">
          <ErrorSentence error={error} />
        </Alert>
      )}
    </Stack>
  );
}
