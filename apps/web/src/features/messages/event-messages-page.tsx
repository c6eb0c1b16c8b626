import { guestMailAllowance } from '@admit/shared/attendee-messages';
import { managedEvent } from '@admit/shared/events';
import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { GuestMailLeft, guestMailAllowanceKey } from './guest-mail-left';
import { NewMessage } from './new-message';
import { SentMessages } from './sent-messages';

/**
 * An event's messages to its ticket holders (its admins): a new message (who gets it, subject and
 * text), previewed as the email it becomes before it is sent, how many more guests who never bought
 * a ticket may still be emailed, and every message sent, with how far its sending has come and who
 * got it, updated live. Anyone else (staff) is refused at once, by the server's answer.
 */
export function EventMessagesPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const event = useLiveQuery(managedEvent, { eventId });
  const allowance = useQuery({
    queryKey: guestMailAllowanceKey(eventId),
    queryFn: () => callFunction(guestMailAllowance, { eventId }),
    retry: false,
  });
  const found = event.rows?.[0];
  usePageTitle(
    found && intl.formatMessage({ id: 'messages.tabTitle', defaultMessage: 'Messages for {title}' }, { title: found.title }),
  );
  const error = allowance.error ?? event.error;
  return (
    <Stack gap="lg">
      <BackLink to="/manage/events/$eventId" params={{ eventId }}>
        <FormattedMessage id="messages.back" defaultMessage="Back to the event" />
      </BackLink>
      <Title order={1}>
        <FormattedMessage id="messages.title" defaultMessage="Messages to attendees" />
        {found && (
          <Text span display="block" fz="lg" c="dimmed" fw={400}>
            {found.title}
          </Text>
        )}
      </Title>
      {error && <ErrorState error={error} />}
      {!error && (!found || !allowance.data) && <PageLoader />}
      {!error && found && allowance.data && (
        <>
          <GuestMailLeft allowance={allowance.data} />
          <NewMessage eventId={eventId} />
          <SentMessages eventId={eventId} />
        </>
      )}
    </Stack>
  );
}
