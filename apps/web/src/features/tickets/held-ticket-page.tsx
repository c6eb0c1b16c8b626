import { contractRef } from '@admit/shared/contract-ref';
import type { heldTicket } from '@admit/shared/transfers';
import { Alert, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CallError } from '../../lib/callable';
import { localizeTicket } from '../../lib/event-language';
import { useFontsFor } from '../../lib/fonts/use-fonts-for';
import { useLocale } from '../../lib/i18n';
import { ButtonLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { TicketCard } from './ticket-card';

const held = contractRef<typeof heldTicket>('tickets.held');

/** A token that is not the ticket's, or not a token at all: the server answers as for no ticket. */
const opensNothing = (error: unknown) =>
  error instanceof CallError && (error.code === 'not-found' || error.code === 'invalid-argument');

/**
 * One ticket, opened by the token of its own link (decision 0065): where a person who was sent a
 * ticket finds it, signed in or not, as My tickets shows it, with its PDF, its wallet passes (by the same token) and a way to send it on.
 */
export function HeldTicketPage({ ticketId, token }: { ticketId: string; token: string | undefined }) {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'heldTicket.title', defaultMessage: 'Your ticket' }));
  const { locale } = useLocale();
  const [openedAt] = useState(() => Date.now());
  const { rows, error } = useLiveQuery(held, { ticketId, accessToken: token ?? '' }, { enabled: Boolean(token) });
  const ticket = useMemo(() => rows?.[0] && localizeTicket(rows[0], locale), [rows, locale]);
  useFontsFor(ticket ? `${ticket.eventTitle} ${ticket.venue} ${ticket.ticketTypeName} ${ticket.holderName}` : '');
  const notFound = !token || opensNothing(error) || (rows && !rows[0]);

  return (
    <Stack gap="lg" maw={480} mx="auto" w="100%">
      <Title order={1}>
        <FormattedMessage id="heldTicket.title" defaultMessage="Your ticket" />
      </Title>
      {notFound ? (
        <Alert
          color="gray"
          role="alert"
          title={intl.formatMessage({ id: 'heldTicket.notFound.title', defaultMessage: 'We could not find this ticket' })}
        >
          <Stack gap="sm" align="flex-start">
            <FormattedMessage
              id="heldTicket.notFound.body"
              defaultMessage="The link may be incomplete, or the ticket was sent on to someone else. Open the link again from the email we sent you, or copy all of it into the address bar."
            />
            <ButtonLink to="/" size="xs" variant="light">
              <FormattedMessage id="notFound.home" defaultMessage="Go to the start page" />
            </ButtonLink>
          </Stack>
        </Alert>
      ) : error ? (
        <ErrorState error={error} />
      ) : ticket ? (
        <>
          <TicketCard ticket={ticket} openedAt={openedAt} accessToken={token} component="section" />
          <Text size="sm" c="dimmed" ta="center">
            <FormattedMessage
              id="heldTicket.keep"
              defaultMessage="This page is your ticket: the email we sent you links back to it. Show the QR code at the door, on this screen or printed."
            />
          </Text>
        </>
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
