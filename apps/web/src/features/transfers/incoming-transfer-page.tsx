import { contractRef } from '@admit/shared/contract-ref';
import { localizeEvent, localizeTicketTypeName } from '@admit/shared/localize-event';
import type { IncomingTransferRow, incomingTransfer } from '@admit/shared/transfers';
import { Alert, Badge, Card, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CallError } from '../../lib/callable';
import { formatRange } from '../../lib/dates';
import { useFontsFor } from '../../lib/fonts/use-fonts-for';
import { useLocale } from '../../lib/i18n';
import { AnchorLink, ButtonLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { AcceptTransferForm } from './accept-transfer-form';

const incoming = contractRef<typeof incomingTransfer>('tickets.incomingTransfer');

/** A token that is not the transfer's, or not a token at all: the server answers as for no transfer. */
const opensNothing = (error: unknown) =>
  error instanceof CallError && (error.code === 'not-found' || error.code === 'invalid-argument');

/** The transfer's event and ticket type in the reader's language when the event has it (decision 0040). */
function localized(row: IncomingTransferRow, locale: Parameters<typeof localizeEvent>[1]) {
  const event = localizeEvent(
    {
      title: row.eventTitle,
      description: '',
      venue: row.venue,
      contentLocale: row.contentLocale,
      translations: row.eventTranslations,
    },
    locale,
  );
  const type = localizeTicketTypeName(
    { name: row.ticketTypeName, nameTranslations: row.ticketTypeNameTranslations },
    row.contentLocale,
    event.locale,
  );
  return { ...row, eventTitle: event.title, venue: event.venue, ticketTypeName: type.name, shownIn: event.locale };
}

/**
 * A ticket sent to someone, opened by the link emailed to them (decision 0065), signed in or not:
 * who sent it and for what, then, while it waits, their name and the event's questions for its type
 * to accept it (it is issued to them anew, and its page opens), or a way to decline it. Otherwise it
 * says what became of it, live: the sender may take it back while the page is open.
 */
export function IncomingTransferPage({ transferId, token }: { transferId: string; token: string | undefined }) {
  const intl = useIntl();
  const { locale } = useLocale();
  usePageTitle(intl.formatMessage({ id: 'incoming.tabTitle', defaultMessage: 'A ticket for you' }));
  const { rows, error } = useLiveQuery(incoming, { transferId, token: token ?? '' }, { enabled: Boolean(token) });
  const row = useMemo(() => rows?.[0] && localized(rows[0], locale), [rows, locale]);
  useFontsFor(row ? `${row.eventTitle} ${row.venue} ${row.ticketTypeName} ${row.fromName}` : '');
  const notFound = !token || opensNothing(error) || (rows && !rows[0]);
  // Declined here: what it became takes the focus, as the form and its dialog are gone.
  const [declined, setDeclined] = useState(false);

  return (
    <Stack gap="lg" maw={640} mx="auto" w="100%">
      <Title order={1} style={{ overflowWrap: 'anywhere' }}>
        {row ? (
          <FormattedMessage
            id="incoming.title"
            defaultMessage="{name} sent you a ticket"
            values={{ name: <bdi>{row.fromName}</bdi> }}
          />
        ) : (
          <FormattedMessage id="incoming.tabTitle" defaultMessage="A ticket for you" />
        )}
      </Title>
      {notFound ? (
        <Alert
          color="gray"
          role="alert"
          title={intl.formatMessage({ id: 'incoming.notFound.title', defaultMessage: 'We could not find this ticket' })}
        >
          <Stack gap="sm" align="flex-start">
            <FormattedMessage
              id="incoming.notFound.body"
              defaultMessage="The link may be incomplete. Open it again from the email we sent you, or copy all of it into the address bar."
            />
            <ButtonLink to="/" size="xs" variant="light">
              <FormattedMessage id="notFound.home" defaultMessage="Go to the start page" />
            </ButtonLink>
          </Stack>
        </Alert>
      ) : error ? (
        <ErrorState error={error} />
      ) : row && token ? (
        <>
          <Card withBorder padding="lg" component="section" aria-labelledby="incoming-event">
            <Stack gap={6}>
              <AnchorLink
                id="incoming-event"
                to="/e/$slug"
                params={{ slug: row.eventSlug }}
                fw={700}
                size="lg"
                lang={row.shownIn}
                dir="auto"
              >
                {row.eventTitle}
              </AnchorLink>
              <Text size="sm">{formatRange(intl.locale, row.startsAt, row.endsAt, row.timeZone)}</Text>
              <Text size="sm" c="dimmed" lang={row.shownIn} dir="auto">
                {row.venue}
              </Text>
              <Badge variant="light" lang={row.shownIn} style={{ alignSelf: 'flex-start' }}>
                {row.ticketTypeName}
              </Badge>
            </Stack>
          </Card>
          {row.status === 'pending' ? (
            <AcceptTransferForm transfer={row} token={token} onDeclined={() => setDeclined(true)} />
          ) : (
            <TransferOutcome transfer={row} focus={declined} />
          )}
        </>
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}

/** What became of the transfer, once it no longer waits; `focus` when the person's own step made it so. */
function TransferOutcome({ transfer, focus }: { transfer: IncomingTransferRow; focus: boolean }) {
  const intl = useIntl();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) box.current?.focus();
  }, [focus]);
  const accepted = transfer.status === 'accepted';
  return (
    <Alert
      ref={box}
      tabIndex={-1}
      color={accepted ? 'green' : 'gray'}
      role="status"
      data-testid="transfer-outcome"
      data-status={transfer.status}
      title={
        transfer.status === 'accepted'
          ? intl.formatMessage({ id: 'incoming.accepted', defaultMessage: 'This ticket was accepted' })
          : transfer.status === 'cancelled'
            ? intl.formatMessage({ id: 'incoming.cancelled', defaultMessage: 'The sender took the ticket back' })
            : transfer.status === 'declined'
              ? intl.formatMessage({ id: 'incoming.declined', defaultMessage: 'You declined this ticket' })
              : intl.formatMessage({
                  id: 'incoming.void',
                  defaultMessage: 'This ticket can no longer be accepted (it was refunded or used)',
                })
      }
    >
      {accepted && transfer.ticketId && transfer.ticketAccessToken ? (
        <ButtonLink
          to="/tickets/$ticketId"
          params={{ ticketId: transfer.ticketId }}
          search={{ token: transfer.ticketAccessToken }}
          size="xs"
          variant="white"
        >
          <FormattedMessage id="incoming.open" defaultMessage="Open the ticket" />
        </ButtonLink>
      ) : transfer.status === 'declined' || transfer.status === 'cancelled' ? (
        <FormattedMessage
          id="incoming.stays"
          defaultMessage="It stays with {name}. This link no longer works."
          values={{ name: <bdi>{transfer.fromName}</bdi> }}
        />
      ) : null}
    </Alert>
  );
}
