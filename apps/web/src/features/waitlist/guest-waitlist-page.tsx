import { contractRef } from '@admit/shared/contract-ref';
import type { confirmWaitlistEntry, guestWaitlistEntry } from '@admit/shared/waitlist';
import { Alert, Card, Stack, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { CallError, callFunction } from '../../lib/callable';
import { useViewerTimeZone, viewerTimeZone } from '../../lib/dates';
import { AnchorLink, ButtonLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorSentence, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { MyWaitlistEntry } from './my-waitlist-entry';

const confirming = contractRef<typeof confirmWaitlistEntry>('waitlist.confirm');
const guestEntry = contractRef<typeof guestWaitlistEntry>('waitlist.guestEntry');

/** A token that is not the entry's, or not a token at all: the server answers as for no entry. */
const opensNothing = (error: unknown) =>
  error instanceof CallError && (error.code === 'not-found' || error.code === 'invalid-argument');

/**
 * A guest's place on a waiting list, opened by the link emailed when they joined (decision 0064):
 * opening it takes their place in the queue (`waitlist.confirm`, once; again is harmless), then
 * the entry shows live, as a signed-in person sees theirs on the event's page, and acts with the
 * link's token.
 */
export function GuestWaitlistPage({ entryId, token }: { entryId: string; token: string | undefined }) {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'waitlist.guest.title', defaultMessage: 'Your place on the waiting list' }));
  const confirm = useMutation({
    mutationFn: (link: { entryId: string; token: string }) => callFunction(confirming, link),
  });
  const confirmedLink = useRef<string | null>(null);
  useEffect(() => {
    const link = token && `${entryId} ${token}`;
    if (!link || confirmedLink.current === link) return;
    confirmedLink.current = link;
    confirm.mutate({ entryId, token });
  }, [entryId, token, confirm]);
  // Watched once the place is taken: not first as unconfirmed, which would ask to open this very link.
  const confirmed = confirm.isSuccess || (confirm.isError && !opensNothing(confirm.error));
  const entry = useLiveQuery(guestEntry, { entryId, token: token ?? '' }, { enabled: Boolean(token) && confirmed });
  // The event's zone is not in the guest's row: an offer's end is written in the visitor's own, named.
  const timeZone = useViewerTimeZone() ?? viewerTimeZone();
  const row = entry.rows?.[0];

  const notFound = !token || opensNothing(confirm.error) || opensNothing(entry.error) || (entry.rows && !row);
  return (
    <Stack gap="lg" maw={640} mx="auto" w="100%">
      <Stack gap={4}>
        {row && (
          <AnchorLink to="/e/$slug" params={{ slug: row.eventSlug }} size="sm" dir="auto">
            {row.eventTitle}
          </AnchorLink>
        )}
        <Title order={1}>
          <FormattedMessage id="waitlist.guest.title" defaultMessage="Your place on the waiting list" />
        </Title>
      </Stack>
      {notFound ? (
        <Alert
          color="gray"
          role="alert"
          title={intl.formatMessage({
            id: 'waitlist.guest.notFound.title',
            defaultMessage: 'We could not find this place on a waiting list',
          })}
        >
          <Stack gap="sm" align="flex-start">
            <FormattedMessage
              id="waitlist.guest.notFound.body"
              defaultMessage="The link may be incomplete. Open it again from the email we sent you, or copy all of it into the address bar."
            />
            <ButtonLink to="/" size="xs" variant="light">
              <FormattedMessage id="notFound.home" defaultMessage="Go to the start page" />
            </ButtonLink>
          </Stack>
        </Alert>
      ) : entry.error ? (
        <ErrorState error={entry.error} />
      ) : (
        <>
          {/* Refused for another reason (the list closed meanwhile): said, and the entry shows what it is. */}
          {confirm.isError && (
            <Alert color="red" role="alert">
              <ErrorSentence error={confirm.error} />
            </Alert>
          )}
          {row ? (
            <Card withBorder padding="lg" data-testid="guest-waitlist-entry">
              <MyWaitlistEntry entry={row} name={{ name: row.ticketTypeName }} timeZone={timeZone} token={token} />
            </Card>
          ) : (
            <PageLoader />
          )}
        </>
      )}
    </Stack>
  );
}
